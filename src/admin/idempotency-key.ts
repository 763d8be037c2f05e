/**
 * The console's `Idempotency-Key` header, one rule for every admin route that changes state
 * (orders, inventory): read and checked here, scoped to the operation and fingerprinted the
 * way the objects' ledgers store it (`admin-<op>:<key>`, durable-objects/README.md "Formats").
 */
import { canonicalJson, sha256Hex } from "../lib/canonical-json";
import { IDEMPOTENCY_KEY_RULE, isIdempotencyKey } from "../lib/idempotency-key-rule";
import { adminError } from "./api-error";
import { invalid } from "./json-body";

/** The header's value, null when absent, or the 400 that refuses one the key rule (lib/idempotency-key-rule.ts) refuses. */
export function idempotencyKey(request: Request): string | null | Response {
  const key = request.headers.get("idempotency-key");
  if (key !== null && !isIdempotencyKey(key)) {
    return invalid("invalid_input", [{ path: "Idempotency-Key", message: IDEMPOTENCY_KEY_RULE }]);
  }
  return key;
}

/** The ledger entry for one admin change: the key scoped by operation, the hash over `{op, id, body}`. */
export async function adminLedgerEntry(op: string, key: string, id: string, body: unknown) {
  return { key: `admin-${op}:${key}`, hash: await sha256Hex(canonicalJson({ op, id, body })) };
}

export function idempotencyConflict(): Response {
  return adminError(409, "idempotency_conflict", {
    message: "This Idempotency-Key was used with a different request.",
  });
}
