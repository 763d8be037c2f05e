/**
 * The console's `Idempotency-Key` header, one rule for every admin route that changes state
 * (orders, inventory): read and checked here, scoped to the operation and fingerprinted the
 * way the objects' ledgers store it (`admin-<op>:<key>`, durable-objects/README.md "Formats").
 */
import { canonicalJson, sha256Hex } from "../lib/canonical-json";
import { jsonResponse } from "../lib/http";
import { invalid } from "./json-body";

// Same shape UCP asks of idempotency keys on the wire: printable ASCII, bounded.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The header's value, null when absent, or the 400 that refuses a malformed one. */
export function idempotencyKey(request: Request): string | null | Response {
  const key = request.headers.get("idempotency-key");
  if (key !== null && !IDEMPOTENCY_KEY.test(key)) {
    return invalid("invalid_input", [{ path: "Idempotency-Key", message: "1 to 255 printable ASCII characters" }]);
  }
  return key;
}

/** The ledger entry for one admin change: the key scoped by operation, the hash over `{op, id, body}`. */
export async function adminLedgerEntry(op: string, key: string, id: string, body: unknown) {
  return { key: `admin-${op}:${key}`, hash: await sha256Hex(canonicalJson({ op, id, body })) };
}

export function idempotencyConflict(): Response {
  return jsonResponse(
    { error: "idempotency_conflict", message: "This Idempotency-Key was used with a different request." },
    409,
  );
}
