/**
 * Every code an authentication failure may carry in `data.code`, closed: a new failure is a
 * new entry here, with its HTTP status, so no call site can invent a code or pair one with
 * the wrong status. `authError` (src/ucp/errors.ts) is the one place they become responses.
 * 400s are the spec's signature-format codes (-32600); the rest are -32000.
 */
import type { SignatureFailureCode } from "./http-signature";

export const AUTH_FAILURES = {
  // RFC 9421 verification (http-signature.ts, signing-keys.ts).
  signature_missing: { httpStatus: 401, signature: true },
  signature_invalid: { httpStatus: 401, signature: true },
  key_not_found: { httpStatus: 401, signature: true },
  digest_mismatch: { httpStatus: 400, signature: true },
  algorithm_unsupported: { httpStatus: 400, signature: true },
  // API keys and tiers (authenticate.ts, src/pipeline/tool-call.ts).
  invalid_api_key: { httpStatus: 401, signature: false },
  authentication_required: { httpStatus: 401, signature: false },
  identity_mismatch: { httpStatus: 403, signature: false },
} as const satisfies Record<string, { httpStatus: 400 | 401 | 403; signature: boolean }>;

export type AuthFailureCode = keyof typeof AUTH_FAILURES;

// Every code the signature verifier reports is in the table: a compile error otherwise.
export const SIGNATURE_CODES_COVERED: SignatureFailureCode extends AuthFailureCode ? true : never = true;
