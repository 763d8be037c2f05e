/**
 * The per-request half of the tool pipeline, shared by every transport: who is calling
 * (signature over the raw body bytes, API key, or anonymous), then that caller's rate limit.
 * The per-call half is callTool (tool-call.ts). Transports parse their own framing first, then
 * call both, and map a refusal or an outcome to their own wire.
 */
import { authenticate, type Principal } from "../auth/authenticate";
import { checkRateLimit } from "../auth/rate-limit";
import { trustConfig } from "../auth/trust-config";
import { merchantConfig } from "../config";
import type { ProtocolError } from "../ucp/errors";
import type { RequestScope } from "./scope";

/** The HTTP request as received, with the body bytes it was read into (signatures cover them). */
export interface HttpCall {
  readonly request: Request;
  readonly body: Uint8Array;
}

export type Admission =
  | { readonly ok: true; readonly scope: RequestScope }
  /** `principal` is known when the credentials were good but the budget is spent. */
  | { readonly ok: false; readonly error: ProtocolError; readonly principal?: Principal };

/** Throws StoreMisconfigured (from the settings) for the transport's catch to report. */
export async function admit(http: HttpCall, env: Env, now = Date.now()): Promise<Admission> {
  const config = merchantConfig(env);
  const trust = trustConfig(env);
  const { request, body } = http;
  const auth = await authenticate({ request, body, env, config, trust, now });
  if (!auth.ok) return { ok: false, error: auth.error };
  const principal = auth.value;
  const limited = await checkRateLimit(env, principal, request, trust);
  if (limited) return { ok: false, error: limited, principal };
  return { ok: true, scope: { env, config, trust, principal, headers: request.headers, now } };
}
