/**
 * What InventoryObject tells search: tracked variants at zero and restocked ones above zero,
 * each with the catalog load its count is from, written to KV (catalog:availability,
 * src/catalog/kv-layout.ts). Writes are chained, so the last one carries the latest state, and
 * an unchanged document is not rewritten. A failed write is logged and retried by the next
 * change; carts and checkouts ask the object itself, so they never depend on it.
 */
import { type AvailabilityDoc, KV_KEYS } from "../../src/catalog/kv-layout";
import { hasTable } from "./schema";

type Row = { variant_id: string; catalog_version: string };

export class AvailabilityPublisher {
  /** The sets last written (JSON), so an unchanged document is not rewritten. */
  #published: string | undefined;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: SqlStorage,
    private readonly kv: KVNamespace,
  ) {}

  /** Publishes the state as it is when this write's turn comes. */
  publish(): Promise<void> {
    const run = this.#chain.then(async () => {
      const doc = this.#document();
      const sets = JSON.stringify({ sold_out: doc.sold_out, restocked: doc.restocked });
      if (sets === this.#published) return;
      try {
        await this.kv.put(KV_KEYS.availability, JSON.stringify(doc));
        this.#published = sets;
      } catch (error) {
        console.error(JSON.stringify({ event: "availability_publish_failed", error: String(error) }));
      }
    });
    this.#chain = run;
    return run;
  }

  /** Which of these variants a merchant restocked (the table appears with the first reservation or restock). */
  restocked(variantIds: readonly string[]): Set<string> {
    if (!hasTable(this.sql, "restocks")) return new Set();
    const rows = this.sql.exec<{ variant_id: string }>(
      "SELECT variant_id FROM restocks WHERE variant_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(variantIds),
    );
    return new Set([...rows].map((r) => r.variant_id));
  }

  #document(): AvailabilityDoc {
    if (!hasTable(this.sql, "stock")) return { updated_at: new Date().toISOString(), sold_out: {}, restocked: {} };
    // fromEntries defines own properties, so an id such as "__proto__" stays data.
    const entries = (query: string) =>
      Object.fromEntries([...this.sql.exec<Row>(query)].map((r) => [r.variant_id, r.catalog_version]));
    return {
      updated_at: new Date().toISOString(),
      sold_out: entries("SELECT variant_id, catalog_version FROM stock WHERE level = 0"),
      restocked: hasTable(this.sql, "restocks")
        ? entries(
            "SELECT s.variant_id, s.catalog_version FROM stock s JOIN restocks r USING (variant_id) WHERE s.level > 0",
          )
        : {},
    };
  }
}
