/**
 * What InventoryObject.levels() answers for the variants it counts: each one's level now (the
 * stored count, or the catalog's when a later load restated it), the load that level counts
 * from, and which of them show as restocked. Pure: the object reads the rows.
 */
import { effectiveLevel, type StockLevel, type StockRow } from "../shared/inventory-plan";

export interface CountedLevels {
  readonly levels: Record<string, StockLevel>;
  readonly restocked: string[];
  readonly versions: Record<string, string>;
}

export function countedLevels(
  ids: readonly string[],
  rows: ReadonlyMap<string, StockRow>,
  restocked: ReadonlySet<string>,
  catalogLevels: Record<string, StockLevel>,
  catalogVersion: string,
): CountedLevels {
  const levels: Array<[string, StockLevel]> = [];
  const versions: Array<[string, string]> = [];
  const shown: string[] = [];
  for (const id of ids) {
    const catalogLevel = Object.hasOwn(catalogLevels, id) ? catalogLevels[id] : undefined;
    const row = rows.get(id);
    const now = effectiveLevel(row, catalogLevel, catalogVersion);
    // Untracked and unknown to the catalog: nothing to say.
    if (now.level === null && catalogLevel === undefined) continue;
    levels.push([id, now.level]);
    versions.push([id, now.version]);
    // A restock shows while its count stands: a later load's level restates it.
    if (row && now.version === row.version && restocked.has(id)) shown.push(id);
  }
  // fromEntries defines own properties, so an id such as "__proto__" stays data.
  return { levels: Object.fromEntries(levels), restocked: shown, versions: Object.fromEntries(versions) };
}

/**
 * levels()'s answer. `uncounted`: variants a shard has no row for yet (the coordinator asks
 * the store-wide object for them). The store-wide object adds `versions`, the load each level
 * counts from, or `counts: false` when it holds no stock row at all (shared/stock-shard.ts).
 */
export interface LevelsAnswer {
  levels: Record<string, StockLevel>;
  restocked: string[];
  versions?: Record<string, string>;
  uncounted?: string[];
  counts?: false;
}
