/**
 * Hand-off tokens: what a buyer's browser gets instead of an API id (continue_url, order
 * permalink_url). A token is AES-GCM over {k: kind, i: id, e: expiry ms}, with a key derived
 * (HKDF) from ID_SIGNING_KEY, so it is opaque, cannot be forged or altered, and says what it
 * opens and until when. Whoever holds an API id still cannot build the URL, and whoever
 * holds the URL cannot read the API id out of it.
 *
 * The IV is synthetic (HMAC of the plaintext): the same session within one expiry bucket
 * gets the same URL (object read caches and idempotent replays stay byte-equal), and two
 * different plaintexts never share an IV, which AES-GCM must never allow.
 *
 * Format: base64url(iv[12] ‖ ciphertext+tag), URL `<origin>/cart/<token>`,
 * `<origin>/checkout/<token>` or `<origin>/orders/<token>` (docs/trust.md). Tokens issued
 * under the first design (`/continue/<token>` for both carts and checkouts, `/order/<token>`)
 * still open: the pages redirect them (src/pages/handoff.ts).
 */
import { toBase64Url } from "./ids";
import { Lru } from "./lru";

export type HandoffKind = "cart" | "checkout" | "order";

export const HANDOFF_TTL_MS: Record<HandoffKind, number> = {
  cart: 7 * 24 * 3600_000,
  checkout: 24 * 3600_000,
  // An order page is where the buyer comes back for tracking: it lives as long as returns do.
  order: 180 * 24 * 3600_000,
};
/** Where each kind's page lives (the buyer pages, src/pages/; DESIGN.md's route table). */
export const HANDOFF_PATH: Record<HandoffKind, string> = { cart: "/cart/", checkout: "/checkout/", order: "/orders/" };

/** Expiries are rounded up to this, so one session's URL is stable for an hour at a time. */
const BUCKET_MS = 3600_000;
const IV_BYTES = 12;
const MAX_TOKEN_CHARS = 512;

interface Keys {
  readonly seal: CryptoKey;
  readonly iv: CryptoKey;
}
const keyCache = new Map<string, Promise<Keys>>();

function keysFor(secret: string): Promise<Keys> {
  let keys = keyCache.get(secret);
  if (!keys) {
    keys = deriveKeys(secret);
    // One secret per deployment; the bound only matters to tests that use several.
    if (keyCache.size >= 8) keyCache.delete(keyCache.keys().next().value as string);
    keyCache.set(secret, keys);
  }
  return keys;
}

async function deriveKeys(secret: string): Promise<Keys> {
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
  const derive = (info: string, algorithm: { name: string; length: number; hash?: string }, usages: string[]) =>
    crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new TextEncoder().encode(info) },
      base,
      algorithm,
      false,
      usages as Parameters<typeof crypto.subtle.deriveKey>[4],
    );
  return {
    seal: await derive("ucp-worker handoff aes-gcm", { name: "AES-GCM", length: 256 }, ["encrypt", "decrypt"]),
    iv: await derive("ucp-worker handoff iv", { name: "HMAC", hash: "SHA-256", length: 256 }, ["sign"]),
  };
}

/**
 * Tokens this isolate sealed, for one secret: a token depends only on (kind, id, expiry
 * bucket), and every answer about a session carries it (a purchase's create, update and
 * complete seal the same one), so each is made once an hour instead of once an answer.
 */
const sealed = { secret: "", tokens: new Lru<string, string>(1024) };

/** A token for `id` of `kind`, valid until `now + ttlMs` rounded up to the hour. */
export async function sealHandoff(
  secret: string,
  kind: HandoffKind,
  id: string,
  now: number,
  ttlMs: number = HANDOFF_TTL_MS[kind],
): Promise<string> {
  const exp = Math.ceil((now + ttlMs) / BUCKET_MS) * BUCKET_MS;
  if (sealed.secret !== secret) {
    sealed.secret = secret;
    sealed.tokens.clear();
  }
  const cacheKey = `${kind} ${exp} ${id}`;
  const known = sealed.tokens.get(cacheKey);
  if (known !== undefined) return known;
  const token = await seal(secret, kind, id, exp);
  // Read again: another secret may have been used meanwhile (tests use several).
  if (sealed.secret === secret) sealed.tokens.set(cacheKey, token);
  return token;
}

async function seal(secret: string, kind: HandoffKind, id: string, exp: number): Promise<string> {
  const plain = new TextEncoder().encode(JSON.stringify({ k: kind, i: id, e: exp }));
  const keys = await keysFor(secret);
  const iv = new Uint8Array(await crypto.subtle.sign("HMAC", keys.iv, plain)).slice(0, IV_BYTES);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, keys.seal, plain));
  const all = new Uint8Array(IV_BYTES + sealed.length);
  all.set(iv);
  all.set(sealed, IV_BYTES);
  return toBase64Url(all);
}

export type OpenFailure = "malformed" | "tampered" | "wrong_kind" | "expired";

/** The id a token opens, if it is ours, of this kind, and not expired at `now`. */
export async function openHandoff(
  secret: string,
  kind: HandoffKind,
  token: string,
  now: number,
): Promise<{ ok: true; id: string; expiresAt: number } | { ok: false; reason: OpenFailure }> {
  if (token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: "malformed" };
  const bytes = fromBase64Url(token);
  if (!bytes || bytes.length <= IV_BYTES + 16) return { ok: false, reason: "malformed" };
  const keys = await keysFor(secret);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, IV_BYTES) },
      keys.seal,
      bytes.slice(IV_BYTES),
    );
  } catch {
    return { ok: false, reason: "tampered" };
  }
  const body = JSON.parse(new TextDecoder().decode(plain)) as { k: string; i: string; e: number };
  if (body.k !== kind) return { ok: false, reason: "wrong_kind" };
  if (!(now < body.e)) return { ok: false, reason: "expired" };
  return { ok: true, id: body.i, expiresAt: body.e };
}

/** The buyer-facing URL for a session or order (`now` decides the token's expiry). */
export async function handoffUrl(
  origin: string,
  secret: string,
  kind: HandoffKind,
  id: string,
  now: number,
): Promise<string> {
  return `${origin}${HANDOFF_PATH[kind]}${await sealHandoff(secret, kind, id, now)}`;
}

function fromBase64Url(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
