/**
 * Auth failure codes are a closed set mapped in one place (src/auth/failure-codes.ts,
 * authError in src/ucp/errors.ts): a code outside the set does not compile, and each code's
 * status and JSON-RPC code come from its entry, not from the call site.
 */
import { describe, expect, it } from "vitest";
import { AUTH_FAILURES, type AuthFailureCode } from "../../../src/auth/failure-codes";
import { authError } from "../../../src/ucp/errors";

describe("authError", () => {
  it("takes its status from the code: the spec's signature-format codes are 400/-32600", () => {
    const digest = authError("digest_mismatch", "Content-Digest does not match the body");
    expect([digest.httpStatus, digest.rpcCode, digest.message]).toEqual([400, -32600, "Signature verification failed"]);
    const key = authError("key_not_found", "No key with that kid");
    expect([key.httpStatus, key.rpcCode, key.message]).toEqual([401, -32000, "Signature verification failed"]);
    const mismatch = authError("identity_mismatch", "other platform", { tier: "authenticated" });
    expect([mismatch.httpStatus, mismatch.rpcCode, mismatch.message]).toEqual([403, -32000, "Forbidden"]);
    expect(mismatch.data).toEqual({ code: "identity_mismatch", content: "other platform", tier: "authenticated" });
    const required = authError("authentication_required", "sign in");
    expect([required.httpStatus, required.message]).toEqual([401, "Unauthorized"]);
  });

  it("refuses a code outside the set at compile time", () => {
    // @ts-expect-error: "bad_credentials" is no AuthFailureCode (typecheck fails if this compiles)
    const invented: AuthFailureCode = "bad_credentials";
    expect(invented in AUTH_FAILURES).toBe(false);
  });
});
