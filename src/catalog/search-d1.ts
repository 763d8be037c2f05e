/**
 * search_catalog on D1 (issue 28): FTS5 ranks (bm25, title > attributes > description), the
 * filters and the page are one query, and nothing of the catalog is held in the isolate.
 *
 * Every word must match (plurals fold, the last word is also a prefix). A word the catalog
 * does not have is corrected to its nearest catalog word (one or two edits); a word with no
 * correction means no product matches. When all words are the catalog's but no product has
 * them all, products with any of them are ranked instead, so "red canvas boots" still finds
 * red boots. Live sell-outs and restocks come from search_live, written by the stock shards.
 */

import type { VariantFilter } from "./search-engine";
import { searchTable } from "./search-tables";
import { allowedEdits, editDistance, ftsTerm, queryWords } from "./search-words";

export interface D1SearchInput {
  readonly key: string;
  /** The catalog load's stockVersion: a published state counted from an older load is void. */
  readonly stockVersion: string;
  readonly query: string | undefined;
  readonly filter: VariantFilter;
  readonly offset: number;
  readonly limit: number;
  /** Minor-unit digits of the store currency, for price words ("under 200"). */
  readonly fractionDigits: number;
}

export interface D1Hit {
  readonly id: string;
  /** The featured variant's position in the product's variants. */
  readonly variant: number;
}

export interface D1SearchResult {
  readonly hits: D1Hit[];
  /** Exact up to COUNT_CAP; undefined past it. */
  readonly total: number | undefined;
}

/** Matches counted at most: past this the answer says more pages exist, not how many. */
export const COUNT_CAP = 10_000;
const WEIGHTS = "100.0, 10.0, 1.0";

export async function searchD1(db: D1Database, input: D1SearchInput): Promise<D1SearchResult> {
  const parsed = input.query === undefined ? undefined : queryWords(input.query, input.fractionDigits);
  const filter: VariantFilter = {
    ...input.filter,
    ...(input.filter.minPrice === undefined && parsed?.minPrice !== undefined ? { minPrice: parsed.minPrice } : {}),
    ...(input.filter.maxPrice === undefined && parsed?.maxPrice !== undefined ? { maxPrice: parsed.maxPrice } : {}),
  };
  if (!parsed) return page(db, input, filter, undefined);
  if (parsed.words.length === 0) {
    // Only price words ("under 50") browse with that bound; no words at all match nothing.
    const priced = parsed.minPrice !== undefined || parsed.maxPrice !== undefined;
    return priced ? page(db, input, filter, undefined) : { hits: [], total: 0 };
  }
  const all = (words: readonly string[]) => words.map((w, i) => ftsTerm(w, i === words.length - 1)).join(" AND ");
  const first = await page(db, input, filter, all(parsed.words));
  if (first.hits.length > 0 || input.offset > 0) return first;
  const corrected = await correct(db, input.key, parsed.words, all(parsed.words));
  // Every word matched together, and the filters took the products out: that is the answer.
  if (corrected === "filtered" || corrected.some((w) => w === undefined)) return { hits: [], total: 0 };
  const words = corrected as string[];
  const changed = words.some((w, i) => w !== parsed.words[i]);
  if (changed) {
    const again = await page(db, input, filter, all(words));
    if (again.hits.length > 0) return again;
  }
  if (words.length < 2) return { hits: [], total: 0 };
  return page(db, input, filter, words.map((w, i) => ftsTerm(w, i === words.length - 1)).join(" OR "));
}

/** Each word as the catalog has it, its nearest catalog word, or undefined when it has none. */
async function correct(
  db: D1Database,
  key: string,
  words: readonly string[],
  together: string,
): Promise<Array<string | undefined> | "filtered"> {
  const fts = searchTable(key, "fts");
  const vocab = searchTable(key, "vocab");
  const exists = `SELECT EXISTS(SELECT 1 FROM ${fts} WHERE ${fts} MATCH ?) AS hit`;
  const found = await db.batch<{ hit: number }>([
    db.prepare(exists).bind(together),
    ...words.map((w, i) => db.prepare(exists).bind(ftsTerm(w, i === words.length - 1))),
  ]);
  if (found[0]?.results[0]?.hit) return "filtered";
  const missing = words.filter((_, i) => !found[i + 1]?.results[0]?.hit);
  if (missing.length === 0) return [...words];
  // Candidates share the first letter (an edit there is rare, and it keeps the scan small).
  const candidates = await db.batch<{ term: string; doc: number }>(
    missing.map((w) =>
      db
        .prepare(`SELECT term, doc FROM ${vocab} WHERE term >= ? AND term < ?`)
        .bind(w.slice(0, 1), `${w.slice(0, 1)}\u{10ffff}`),
    ),
  );
  const fixes = new Map<string, string | undefined>();
  missing.forEach((word, i) => {
    const max = allowedEdits(word);
    let best: { term: string; d: number; doc: number } | undefined;
    for (const { term, doc } of candidates[i]?.results ?? []) {
      if (max === 0) break;
      // Catalog words are stemmed (socks → sock, hiking → hike): compare the word and its plain stems.
      // A misspelt ending ("sleepign") is an edit more than the stem it hides ("sleep").
      const tail = word.length - term.length;
      const stemmed =
        term.length >= 4 && tail > 0 && tail <= 3 ? editDistance(word.slice(0, term.length), term, max) + 1 : max + 1;
      const d = Math.min(stemmed, ...stems(word).map((w) => editDistance(w, term, max)));
      if (d > max) continue;
      if (!best || d < best.d || (d === best.d && doc > best.doc)) best = { term, d, doc };
    }
    fixes.set(word, best?.term);
  });
  return words.map((w) => (fixes.has(w) ? fixes.get(w) : w));
}

/** The word and what it may be without an inflection (porter's stems in the vocabulary have none). */
function stems(word: string): string[] {
  const out = [word];
  for (const end of ["s", "es", "ing", "ed"]) {
    if (word.length > end.length + 2 && word.endsWith(end)) out.push(word.slice(0, -end.length));
  }
  return out;
}

type Row = { doc: number; pos: number; id: string; total: number };

/** One page of matches (match === undefined: the catalog in its order) with the filters applied. */
async function page(
  db: D1Database,
  input: D1SearchInput,
  filter: VariantFilter,
  match: string | undefined,
): Promise<D1SearchResult> {
  const doc = searchTable(input.key, "doc");
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `?${params.length}`;
  };
  const source =
    match === undefined
      ? `SELECT doc, 0 AS score FROM ${doc}`
      : `SELECT rowid AS doc, bm25(${searchTable(input.key, "fts")}, ${WEIGHTS}) AS score FROM ${searchTable(input.key, "fts")} WHERE ${searchTable(input.key, "fts")} MATCH ${bind(match)}`;
  const pos = featuredSql(input, filter, bind);
  const cats = categorySql(input.key, filter, bind);
  const candidates = `SELECT m.doc, m.score, ${pos} AS pos FROM (${source}) m${cats ? ` WHERE m.doc IN (${cats})` : ""}`;
  const filtered = `SELECT doc, pos, score FROM (${candidates}) WHERE pos IS NOT NULL`;
  const limit = bind(input.limit);
  const offset = bind(input.offset);
  const capped = bind(COUNT_CAP + 1);
  const order = match === undefined ? "doc" : "score, doc";
  const sql = `WITH f AS (${filtered}), p AS (SELECT doc, pos, score FROM f ORDER BY ${order} LIMIT ${limit} OFFSET ${offset})
    SELECT p.doc, p.pos, d.id, (SELECT count(*) FROM (SELECT 1 FROM f LIMIT ${capped})) AS total
    FROM p JOIN ${doc} d ON d.doc = p.doc ORDER BY ${match === undefined ? "p.doc" : "p.score, p.doc"}`;
  const rows = (
    await db
      .prepare(sql)
      .bind(...params)
      .all<Row>()
  ).results;
  let total = rows[0]?.total;
  if (total === undefined && input.offset > 0) {
    // Past the last page: count alone, so the answer still says how many there are.
    const countSql = `WITH f AS (${filtered}) SELECT count(*) AS total FROM (SELECT 1 FROM f LIMIT ${capped})`;
    total =
      (
        await db
          .prepare(countSql)
          .bind(...params)
          .first<{ total: number }>()
      )?.total ?? 0;
  }
  return {
    hits: rows.map((r) => ({ id: r.id, variant: r.pos })),
    total: total === undefined ? 0 : total > COUNT_CAP ? undefined : total,
  };
}

/** The first variant (merchant order) passing the price and availability filters, or 0 without them. */
function featuredSql(input: D1SearchInput, filter: VariantFilter, bind: (v: unknown) => string): string {
  const conds: string[] = [];
  if (filter.minPrice !== undefined) conds.push(`x.price >= ${bind(filter.minPrice)}`);
  if (filter.maxPrice !== undefined) conds.push(`x.price <= ${bind(filter.maxPrice)}`);
  let join = "";
  if (filter.available !== undefined) {
    const sv = bind(input.stockVersion);
    join = " LEFT JOIN search_live l ON l.variant_id = x.id";
    conds.push(
      `(CASE WHEN l.v >= ${sv} AND l.s = 'sold_out' THEN 0 WHEN l.v >= ${sv} AND l.s = 'restocked' THEN 1 ELSE x.available END) = ${bind(filter.available ? 1 : 0)}`,
    );
  }
  if (conds.length === 0) return "0";
  const v = searchTable(input.key, "var");
  return `(SELECT x.pos FROM ${v} x${join} WHERE x.doc = m.doc AND ${conds.join(" AND ")} ORDER BY x.pos LIMIT 1)`;
}

/** Docs in any wanted category or below it ("footwear" takes "footwear > running"). */
function categorySql(key: string, filter: VariantFilter, bind: (v: unknown) => string): string | undefined {
  const wanted = filter.categories ?? [];
  if (wanted.length === 0) return undefined;
  const c = searchTable(key, "cat");
  const ors = wanted.map(
    (w) => `cat = ${bind(w)} OR (cat >= ${bind(`${w} > `)} AND cat < ${bind(`${w} >\u{10ffff}`)})`,
  );
  return `SELECT doc FROM ${c} WHERE ${ors.join(" OR ")}`;
}
