/**
 * Cloudflare Access in front of the console: every request Access lets through carries
 * `Cf-Access-Jwt-Assertion`, an RS256 JWT signed by the team's keys (published as a JWKS at
 * `<team>/cdn-cgi/access/certs`). It is verified here too, so a request that reaches the
 * Worker around Access (workers.dev, a route Access does not cover) or with a forged header
 * gets nothing.
 *
 * Keys are cached per isolate; an unknown `kid` (Access rotated its key) refetches, at most
 * once a minute, so a stream of made-up kids cannot turn into a stream of fetches.
 */
import type { AccessSettings } from "../../config";
import { fromBase64Url } from "../../lib/ids";
import { Lru } from "../../lib/lru";

export const ACCESS_HEADER = "cf-access-jwt-assertion";

/** Seconds of clock difference tolerated on exp and nbf. */
const LEEWAY_S = 60;
const REFETCH_MS = 60_000;
/** Known keys are still refreshed this often, so a key Access withdrew stops working. */
const MAX_AGE_MS = 3600_000;
const MAX_KEYS = 16;
const MAX_TOKEN = 8192;
const MAX_JWKS_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 3000;

export interface AccessIdentity {
  /** The person's email, or a service token's client id. */
  readonly email: string;
  readonly sub: string;
}

export type CertsFetch = (url: string, init: RequestInit) => Promise<Response>;

interface TeamKeys {
  keys: Map<string, CryptoKey>;
  fetchedAt: number;
  inflight?: Promise<void>;
}

const teams = new Lru<string, TeamKeys>(4);

/** Test hook: forget every cached key. */
export function clearAccessKeys(): void {
  teams.clear();
}

function json(part: string): Record<string, unknown> | undefined {
  const bytes = fromBase64Url(part);
  if (!bytes) return undefined;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function importKeys(body: unknown): Promise<Map<string, CryptoKey>> {
  const list = (body as { keys?: unknown })?.keys;
  const keys = new Map<string, CryptoKey>();
  if (!Array.isArray(list)) return keys;
  for (const jwk of list.slice(0, MAX_KEYS) as Array<Record<string, unknown>>) {
    if (jwk?.kty !== "RSA" || typeof jwk.kid !== "string" || typeof jwk.n !== "string" || typeof jwk.e !== "string")
      continue;
    if (jwk.alg !== undefined && jwk.alg !== "RS256") continue;
    try {
      const key = await crypto.subtle.importKey(
        "jwk",
        { kty: "RSA", n: jwk.n, e: jwk.e, alg: "RS256", ext: true },
        { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
        false,
        ["verify"],
      );
      keys.set(jwk.kid, key);
    } catch {
      // One unusable key must not hide the others.
    }
  }
  return keys;
}

async function refresh(team: string, entry: TeamKeys, now: number, fetcher: CertsFetch): Promise<void> {
  entry.fetchedAt = now;
  try {
    const res = await fetcher(`${team}/cdn-cgi/access/certs`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`certs answered ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_JWKS_BYTES) throw new Error("certs too large");
    const keys = await importKeys(JSON.parse(text));
    if (keys.size > 0) entry.keys = keys;
  } catch (e) {
    // Keep the keys we had: Access being briefly unreachable must not sign everyone out.
    console.error(
      JSON.stringify({ event: "access_certs_failed", message: e instanceof Error ? e.message : String(e) }),
    );
  }
}

async function keyFor(team: string, kid: string, now: number, fetcher: CertsFetch): Promise<CryptoKey | undefined> {
  let entry = teams.get(team);
  if (!entry) {
    entry = { keys: new Map(), fetchedAt: Number.NEGATIVE_INFINITY };
    teams.set(team, entry);
  }
  const stale = now - entry.fetchedAt >= MAX_AGE_MS;
  const unknown = !entry.keys.has(kid);
  if ((stale || unknown) && now - entry.fetchedAt >= REFETCH_MS) {
    entry.inflight ??= refresh(team, entry, now, fetcher).finally(() => {
      if (entry) delete entry.inflight;
    });
  }
  if (entry.inflight) await entry.inflight;
  return entry.keys.get(kid);
}

/**
 * The identity in an Access JWT when it is signed by the team's key for this application and
 * current; undefined for anything else (malformed, other audience, other issuer, expired).
 */
export async function verifyAccessJwt(
  token: string,
  settings: AccessSettings,
  now: number,
  fetcher: CertsFetch = (url, init) => fetch(url, init),
): Promise<AccessIdentity | undefined> {
  if (token.length > MAX_TOKEN) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts as [string, string, string];
  const header = json(h);
  const claims = json(p);
  const signature = fromBase64Url(s);
  if (!header || !claims || !signature) return undefined;
  if (header.alg !== "RS256" || typeof header.kid !== "string") return undefined;

  const seconds = now / 1000;
  if (claims.iss !== settings.teamDomain) return undefined;
  const aud = claims.aud;
  if (!(aud === settings.audience || (Array.isArray(aud) && aud.includes(settings.audience)))) return undefined;
  if (typeof claims.exp !== "number" || claims.exp + LEEWAY_S <= seconds) return undefined;
  if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf - LEEWAY_S > seconds)) return undefined;

  const key = await keyFor(settings.teamDomain, header.kid, now, fetcher);
  if (!key) return undefined;
  const signed = new TextEncoder().encode(`${h}.${p}`);
  if (!(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, signed))) return undefined;

  const sub = typeof claims.sub === "string" ? claims.sub : "";
  // A service token's JWT has no email: its client id (common_name) names it instead.
  const email =
    typeof claims.email === "string" ? claims.email : typeof claims.common_name === "string" ? claims.common_name : sub;
  if (!email) return undefined;
  return { email, sub: sub || email };
}
