/**
 * Which variants a change moved between published states: a shard writes only those keys
 * (shared/availability-publisher.ts, ShardPublisher), so it notes each variant's state before
 * the change writes it and compares after, in the same transaction. The store-wide object
 * rewrites its whole document instead and notes nothing.
 */
import type { VariantAvailability } from "../../src/catalog/kv-layout";
import { stateChanged, variantState } from "../shared/availability-publisher";

export class MovedVariants {
  readonly #before = new Map<string, VariantAvailability | undefined>();

  constructor(private readonly perVariant: boolean) {}

  /** Notes these variants' states; call before the change writes them. */
  track(sql: SqlStorage, variantIds: readonly string[]): void {
    if (!this.perVariant) return;
    for (const v of variantIds) if (!this.#before.has(v)) this.#before.set(v, variantState(sql, v));
  }

  /** The tracked variants whose published state moved since track(). */
  moved(sql: SqlStorage): string[] {
    return [...this.#before].filter(([v, state]) => stateChanged(state, variantState(sql, v))).map(([v]) => v);
  }
}
