/**
 * One inventory change in the store's transaction (shared/kernel.ts), answered with the
 * variants whose published state it moved: the step calls `track` before it writes a variant
 * (inventory/moved.ts). On an object with nothing stored, an answer `kept` refuses is rolled
 * back with the tables the transaction made, so a short or invalid reservation leaves no
 * storage behind (as reads and releases of unknown ids do not).
 */
import type { ObjectStore } from "../shared/kernel";
import { MovedVariants } from "./moved";

/** Thrown to roll back a refused change on an object with nothing stored. */
class Refusal<T> {
  constructor(readonly outcome: T) {}
}

export type Track = (variantIds: readonly string[]) => void;

export function trackedChange<T>(
  store: ObjectStore,
  perVariant: boolean,
  step: (sql: SqlStorage, track: Track) => T,
  kept: (outcome: T) => boolean = () => true,
): { outcome: T; moved: string[] } {
  const fresh = !store.exists();
  const watch = new MovedVariants(perVariant);
  try {
    return store.transaction((sql) => {
      const outcome = step(sql, (ids) => watch.track(sql, ids));
      if (fresh && !kept(outcome)) throw new Refusal(outcome);
      return { outcome, moved: watch.moved(sql) };
    });
  } catch (e) {
    if (e instanceof Refusal) return { outcome: e.outcome as T, moved: [] };
    throw e;
  }
}
