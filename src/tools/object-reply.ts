/**
 * What the cart and checkout tools share: the idempotency ledger entry they send to their
 * object, and the mapping of an object's reply to the wire.
 */
import { canonicalJson, sha256Hex } from "../lib/canonical-json";
import { RawJson } from "../lib/raw-json";
import { err, ok, type Result } from "../lib/result";
import { type ProtocolError, unavailable } from "../ucp/errors";
import type { UcpPayload } from "./types";

export type ObjectReply = { kind: "ok"; body: string } | { kind: "not_found" } | { kind: "conflict" };

const IDEMPOTENCY_CONFLICT: ProtocolError = {
  rpcCode: -32000,
  httpStatus: 409,
  message: "Idempotency key reused with different payload",
};

/** Scoped by operation; the fingerprint covers the target id and the payload, not meta. */
export async function ledgerEntry(op: string, key: string, id: string, payload: unknown) {
  return { key: `${op}:${key}`, hash: await sha256Hex(canonicalJson({ op, id, payload })) };
}

/** The object's JSON text goes out as-is; a failing object means "retry", never a 500. */
export async function objectReply(
  call: () => Promise<ObjectReply>,
  notFound: () => UcpPayload,
): Promise<Result<UcpPayload, ProtocolError>> {
  let outcome: ObjectReply;
  try {
    outcome = await call();
  } catch (e) {
    // Storage or the object unavailable: fail closed and let the client retry with its key.
    console.error("durable object call failed", e instanceof Error ? e.message : e);
    return err(unavailable());
  }
  if (outcome.kind === "conflict") return err(IDEMPOTENCY_CONFLICT);
  if (outcome.kind === "not_found") return ok(notFound());
  return ok(new RawJson(outcome.body));
}
