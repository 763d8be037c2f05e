/**
 * Who is calling: an RFC 9421 signature verified with a key from the signer's own profile,
 * an API key bound to one profile, or nobody (anonymous). A credential that is present but
 * wrong is refused outright, never downgraded to anonymous: a platform that signs must
 * learn its signatures are broken. Identity binding against the profile in the tool call
 * happens in the tool pipeline (src/pipeline/tool-call.ts), where that profile is known.
 */
import type { MerchantConfig } from "../config";
import { err, ok, type Result } from "../lib/result";
import { authError, discoveryError, type ProtocolError } from "../ucp/errors";
import { checkProfileUrl, hasFreshProfile, loadPlatformProfile, refreshPlatformProfile } from "../ucp/profile-fetch";
import { profileFromHeader } from "../ucp/ucp-agent";
import { findApiKey } from "./api-keys";
import { type SignatureFailure, verifyRequest } from "./http-signature";
import { addressKey, chargeFailure, profileOriginKey, type RateLimitEnv, spentBudget } from "./rate-limit";
import type { TrustConfig, TrustTier } from "./trust-config";

export type Principal =
  | { readonly tier: "anonymous" }
  | {
      readonly tier: Extract<TrustTier, "authenticated">;
      /** The platform profile URL (normalized href) this caller may act for. */
      readonly profile: string;
      readonly via: "signature" | "api_key";
      /** The signing key's kid, or the API key's id. */
      readonly keyId: string;
      /** What the signature covers (RFC 9421 component names); empty for an API key. */
      readonly signed: readonly string[];
    };

type Authenticated = Extract<Principal, { tier: "authenticated" }>;

export const ANONYMOUS: Principal = { tier: "anonymous" };

export interface AuthInput {
  readonly request: Request;
  readonly body: Uint8Array;
  readonly env: Env;
  readonly config: MerchantConfig;
  readonly trust: TrustConfig;
  readonly now: number;
}

/** A credential failure, and the profile URL that failed to load when that was the cause. */
interface Refusal {
  readonly error: ProtocolError;
  readonly failedProfile?: URL;
}

/**
 * Refused credentials are charged to the rate limiter (rate-limit.ts) before the answer goes
 * out, and an address or profile origin whose budget is spent is refused here, before any
 * profile fetch, KV read or signature check.
 */
export async function authenticate(input: AuthInput): Promise<Result<Principal, ProtocolError>> {
  const { headers } = input.request;
  const signed = headers.has("signature") || headers.has("signature-input");
  const apiKey = presentedApiKey(headers);
  if (!signed && apiKey === undefined) return ok(ANONYMOUS);

  const address = addressKey(input.request);
  const spent = spentBudget(address, input.now);
  if (spent) return err(spent);
  const verified = await verifyCredentials(input, signed, apiKey);
  if (verified.ok) return verified;
  const { error, failedProfile } = verified.error;
  if (error.httpStatus === 429) return err(error);
  const keys = failedProfile ? [address, profileOriginKey(failedProfile)] : [address];
  const limited = await chargeFailure(input.env as RateLimitEnv, keys, input.now, input.trust);
  return err(limited ?? error);
}

async function verifyCredentials(
  input: AuthInput,
  signed: boolean,
  apiKey: string | undefined,
): Promise<Result<Principal, Refusal>> {
  const { headers } = input.request;
  const bySignature = signed ? await verifySignature(input) : undefined;
  if (bySignature && !bySignature.ok) return bySignature;
  const byKey = apiKey !== undefined ? await verifyApiKey(input, apiKey) : undefined;
  if (byKey && !byKey.ok) return err({ error: byKey.error });
  const principal = (bySignature?.value ?? byKey?.value) as Authenticated;
  if (bySignature && byKey && (byKey.value as Authenticated).profile !== principal.profile) {
    return refuse(authError("identity_mismatch", "The API key and the signature name different platforms"));
  }
  const header = headers.get("ucp-agent");
  if (header !== null && byKey && !bySignature) {
    const claimed = normalizedProfile(profileFromHeader(header));
    if (claimed !== principal.profile) {
      return refuse(authError("identity_mismatch", "This API key is not authorized for the UCP-Agent profile"));
    }
  }
  return ok(principal);
}

/** `Authorization: Bearer <key>` (what the issue asks) or `X-API-Key` (what UCP's REST binding lists). */
function presentedApiKey(headers: Headers): string | undefined {
  const bearer = /^Bearer +(\S+) *$/i.exec(headers.get("authorization") ?? "");
  return bearer?.[1] ?? headers.get("x-api-key") ?? undefined;
}

async function verifyApiKey(input: AuthInput, presented: string): Promise<Result<Principal, ProtocolError>> {
  const kv = (input.env as { AUTH?: KVNamespace }).AUTH;
  const record = kv ? await findApiKey(kv, presented, input.now) : null;
  if (!record) return err(authError("invalid_api_key", "The API key is unknown or revoked"));
  return ok({ tier: "authenticated", profile: record.profile, via: "api_key", keyId: record.id, signed: [] });
}

function refuse(error: ProtocolError, failedProfile?: URL): Result<never, Refusal> {
  return err(failedProfile ? { error, failedProfile } : { error });
}

async function verifySignature(input: AuthInput): Promise<Result<Principal, Refusal>> {
  const { request, config, now } = input;
  const claimed = profileFromHeader(request.headers.get("ucp-agent"));
  if (claimed === undefined) {
    return refuse(authError("signature_invalid", 'Signed requests must carry UCP-Agent: profile="<your profile URL>"'));
  }
  const url = checkProfileUrl(claimed, config.outboundAllow);
  if (!url.ok) return refuse(discoveryError(url.error.code, url.error.content, config.origin));
  // Only a fetch is refused for a spent origin: a platform whose profile is cached still signs in.
  const spent = hasFreshProfile(url.value, now) ? undefined : spentBudget(profileOriginKey(url.value), now);
  if (spent) return refuse(spent);
  const deadline = { timeoutMs: config.profileFetchTimeoutMs };
  const loaded = await loadPlatformProfile(url.value, now, deadline);
  if (!loaded.ok) return refuse(discoveryError(loaded.error.code, loaded.error.content, config.origin), url.value);

  let keys = loaded.value.signingKeys;
  const resolveKey = async (keyid: string): Promise<JsonWebKey | undefined> => {
    const found = keys.find((k) => k.kid === keyid);
    if (found) return found;
    // A platform may have rotated since we cached its profile (rate-limited per origin).
    const refreshed = await refreshPlatformProfile(url.value, now, deadline);
    if (refreshed.ok) keys = refreshed.value.signingKeys;
    return keys.find((k) => k.kid === keyid);
  };
  const verified = await verifyRequest(
    { method: request.method, url: request.url, headers: request.headers, body: input.body },
    resolveKey,
    { now, maxAgeSeconds: input.trust.signatureMaxAgeSeconds },
  );
  if (!verified.ok) return refuse(signatureError(verified.error));
  return ok({
    tier: "authenticated",
    profile: url.value.href,
    via: "signature",
    keyId: verified.value.keyid,
    signed: verified.value.components,
  });
}

function signatureError(failure: SignatureFailure): ProtocolError {
  return authError(failure.code, failure.content);
}

function normalizedProfile(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}
