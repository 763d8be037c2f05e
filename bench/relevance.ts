/**
 * Precision@10 and the no-match rate of the judged query set (bench/relevance-set.ts) over a
 * generated catalog, for the KV index (src/catalog/search-engine.ts, in process: the Worker's
 * own code) and D1 FTS5 (src/catalog/search-d1.ts, on Miniflare's D1: the SQLite the Worker's
 * D1 runs). Precision@10 of a query: relevant products among the first 10, over the most
 * there can be (10, or fewer when the catalog has fewer relevant products); queries with no
 * relevant product at this size are left out and counted.
 *
 *   node scripts/run.mjs bench/relevance.ts [--products 10000] [--seed 7]
 */
import { Miniflare } from "miniflare";
import type { Product } from "../schemas/ucp/product";
import { CatalogValidator } from "../src/catalog/merchant-catalog";
import { searchD1 } from "../src/catalog/search-d1";
import { hydrate, searchIndex } from "../src/catalog/search-engine";
import { buildSearchIndex } from "../src/catalog/search-index";
import { newSearchKey, writeSearchCatalog } from "../src/catalog/search-tables";
import { generateProducts } from "./generate-catalog";
import { type JudgedQuery, RELEVANCE_SET, relevant } from "./relevance-set";

export interface EngineScore {
  readonly precisionAt10: number;
  /** Share of the no-match queries answered with no product. */
  readonly noMatchRate: number;
  readonly byKind: Record<string, number>;
  readonly perQuery: Array<{ query: string; kind: string; precision: number | null; returned: number }>;
}

export interface RelevanceReport {
  readonly products: number;
  readonly queries: number;
  readonly skipped: string[];
  readonly kv: EngineScore;
  readonly d1: EngineScore;
}

type Search = (query: string) => Promise<string[]>;

function validProducts(count: number, seed: number): Product[] {
  const validator = new CatalogValidator("USD");
  const out: Product[] = [];
  for (const raw of generateProducts(count, seed)) {
    const checked = validator.check(raw);
    if (checked.problems) throw new Error(`generated product invalid: ${JSON.stringify(checked.problems)}`);
    out.push(checked.product);
  }
  return out;
}

async function score(search: Search, products: readonly Product[], byId: Map<string, Product>): Promise<EngineScore> {
  const perQuery: EngineScore["perQuery"] = [];
  for (const item of RELEVANCE_SET) {
    const ids = (await search(item.query)).slice(0, 10);
    if (item.judge === "none") {
      perQuery.push({ query: item.query, kind: item.kind, precision: ids.length === 0 ? 1 : 0, returned: ids.length });
      continue;
    }
    const judge = item.judge;
    const possible = Math.min(10, products.filter((p) => relevant(judge, p)).length);
    if (possible === 0) {
      perQuery.push({ query: item.query, kind: item.kind, precision: null, returned: ids.length });
      continue;
    }
    const hits = ids.filter((id) => {
      const p = byId.get(id);
      return p !== undefined && relevant(judge, p);
    }).length;
    perQuery.push({ query: item.query, kind: item.kind, precision: hits / possible, returned: ids.length });
  }
  const mean = (rows: typeof perQuery) => {
    const scored = rows.filter((r) => r.precision !== null);
    return scored.length ? scored.reduce((s, r) => s + (r.precision ?? 0), 0) / scored.length : Number.NaN;
  };
  const judged = perQuery.filter((r) => r.kind !== "no-match");
  const kinds = [...new Set(RELEVANCE_SET.map((r) => r.kind))];
  return {
    precisionAt10: mean(judged),
    noMatchRate: mean(perQuery.filter((r) => r.kind === "no-match")),
    byKind: Object.fromEntries(kinds.map((k) => [k, mean(perQuery.filter((r) => r.kind === k))])),
    perQuery,
  };
}

export async function measureRelevance(count: number, seed: number): Promise<RelevanceReport> {
  const products = validProducts(count, seed);
  const byId = new Map(products.map((p) => [p.id, p]));
  const index = hydrate(buildSearchIndex(products));
  const kvSearch: Search = async (query) =>
    searchIndex(index, query, {}, 10).hits.map((h) => index.docs[h.doc]?.id ?? "");
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    d1Databases: ["DB"],
  });
  try {
    const db = (await mf.getD1Database("DB")) as unknown as D1Database;
    const key = newSearchKey();
    await writeSearchCatalog(db, key, products, new Date());
    const d1Search: Search = async (query) =>
      (
        await searchD1(db, { key, stockVersion: "", query, filter: {}, offset: 0, limit: 10, fractionDigits: 2 })
      ).hits.map((h) => h.id);
    const kv = await score(kvSearch, products, byId);
    const d1 = await score(d1Search, products, byId);
    const skipped = kv.perQuery.filter((r) => r.precision === null).map((r) => r.query);
    return { products: count, queries: RELEVANCE_SET.length, skipped, kv, d1 };
  } finally {
    await mf.dispose();
  }
}

export function relevanceLines(report: RelevanceReport): string[] {
  const pct = (x: number) => (Number.isNaN(x) ? "n/a" : `${(x * 100).toFixed(1)}%`);
  const lines = [
    `relevance: ${report.queries} judged queries over ${report.products} generated products` +
      (report.skipped.length
        ? ` (${report.skipped.length} with no relevant product at this size: ${report.skipped.join(", ")})`
        : ""),
    `  KV index: precision@10 ${pct(report.kv.precisionAt10)}, no-match queries answered empty ${pct(report.kv.noMatchRate)}`,
    `  D1 FTS5:  precision@10 ${pct(report.d1.precisionAt10)}, no-match queries answered empty ${pct(report.d1.noMatchRate)}`,
    `  by kind (KV → D1): ${Object.keys(report.kv.byKind)
      .map((k) => `${k} ${pct(report.kv.byKind[k] ?? Number.NaN)} → ${pct(report.d1.byKind[k] ?? Number.NaN)}`)
      .join(", ")}`,
  ];
  return lines;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

if (process.argv[1]?.endsWith("bench/relevance.ts")) {
  const report = await measureRelevance(option("products", 10_000), option("seed", 7));
  for (const line of relevanceLines(report)) console.log(line);
  if (process.argv.includes("--queries")) {
    for (const [i, r] of report.d1.perQuery.entries()) {
      const kv = report.kv.perQuery[i];
      console.log(
        `  ${r.kind.padEnd(9)} ${r.query.padEnd(34)} KV ${kv?.precision ?? "-"} (${kv?.returned})  D1 ${r.precision ?? "-"} (${r.returned})`,
      );
    }
  }
}

export type { JudgedQuery };
