/**
 * The inventory object's stored layout (shared/kernel.ts), the same for a stock shard and
 * the store-wide object. One step: every table any earlier build made, with `IF NOT EXISTS`,
 * so a store written before the version row (stock and reservations only, or with restocks,
 * returns or the ledger made lazily by their first use) is brought up by it unchanged: no
 * table's columns ever changed. A later change is step 2, with a test that opens state step 1
 * wrote (test/do/inventory-migrations.test.ts).
 */
import { LEDGER_SCHEMA } from "../shared/idempotency";
import { type Migration, tables } from "../shared/kernel";
import { RETURNS_SCHEMA } from "../shared/reservation-returns";

export const INVENTORY_MIGRATIONS: readonly Migration[] = [
  {
    ...tables(1, "stock counts, reservations, restocks, reservation returns and the restock ledger", [
      `CREATE TABLE IF NOT EXISTS stock (
    variant_id TEXT PRIMARY KEY,
    catalog_version TEXT NOT NULL,
    level INTEGER
  )`,
      `CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    lines_json TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'released')),
    created_at INTEGER NOT NULL,
    released_at INTEGER
  )`,
      "CREATE INDEX IF NOT EXISTS reservations_released ON reservations (released_at) WHERE state = 'released'",
      // Variants a merchant restocked through /admin/inventory: published as in stock while
      // counted, though the catalog file may have said out_of_stock.
      "CREATE TABLE IF NOT EXISTS restocks (variant_id TEXT PRIMARY KEY, restocked_at INTEGER NOT NULL)",
      RETURNS_SCHEMA,
      // Restocks' idempotency keys (the console's `admin-restock:<key>`).
      LEDGER_SCHEMA,
    ]),
    ledger: true,
  },
];
