/**
 * A restock's idempotency entry (the console's `admin-restock:<key>`): checked before it keys
 * storage, since an RPC argument is only typed at the caller, and scoped to its variant.
 */

import type { RestockOutcome } from "../shared/inventory-plan";
import type { IdempotencyInput } from "../shared/kernel";

/** What a restock records in the ledger and replays: the first answer, without `replayed`. */
export type RestockAnswer = Omit<Extract<RestockOutcome, { ok: true }>, "replayed">;

export function isLedgerEntry(value: unknown): value is IdempotencyInput {
  const entry = value as Partial<IdempotencyInput> | null;
  return (
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.key === "string" &&
    entry.key.length > 0 &&
    entry.key.length <= 300 &&
    typeof entry.hash === "string" &&
    entry.hash.length <= 128
  );
}

/**
 * The ledger entry a restock of `variantId` records. On a shard a key stays scoped to its
 * variant, as when each variant had its own object: the same key on another variant of the
 * shard is that variant's own request, not a conflict.
 */
export function restockEntry(
  idempotency: IdempotencyInput | undefined,
  variantId: string,
  shard: boolean,
): IdempotencyInput | undefined {
  return idempotency && shard ? { ...idempotency, key: `${idempotency.key}@${variantId}` } : idempotency;
}
