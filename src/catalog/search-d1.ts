/**
 * search_catalog on D1 (issue 28): FTS5 matches and ranks (title > attributes > description), the
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
  /** Exact when every match was ranked (the window held them all); undefined otherwise. */
  readonly total: number | undefined;
  /** Whether a next page has products. */
  readonly more: boolean;
}

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
    return priced ? page(db, input, filter, undefined) : { hits: [], total: 0, more: false };
  }
  // Exact words first: a prefix term makes FTS5 merge every matching word's postings before
  // the first row, whatever the LIMIT (a million products: tens of milliseconds a query).
  const exact = parsed.words.map((w) => ftsTerm(w, false));
  const together = exact.join(" AND ");
  // When no title has the words, whether each word is the catalog's is asked in the same batch
  // as the other tiers: a typo or a word no product has then costs no round trip of its own.
  const probe = input.offset === 0 ? existsStatements(db, input.key, parsed.words, together) : undefined;
  const first = await page(db, input, filter, together, probe);
  if (first.hits.length > 0 || input.offset > 0) return first;
  const corrected = await correct(db, input.key, parsed.words, first.probed ?? (await db.batch(existsOf(probe))));
  // Every word matched together, and the filters took the products out: that is the answer.
  if (corrected === "filtered" || corrected.some((t) => t === undefined)) return { hits: [], total: 0, more: false };
  const terms = corrected as string[];
  if (terms.some((t, i) => t !== exact[i])) {
    const again = await page(db, input, filter, terms.join(" AND "));
    if (again.hits.length > 0) return again;
  }
  if (terms.length < 2) return { hits: [], total: 0, more: false };
  return page(db, input, filter, terms.join(" OR "));
}

/** Whether the words match together, then each alone (correct() reads the answers). */
function existsStatements(db: D1Database, key: string, words: readonly string[], together: string) {
  const fts = searchTable(key, "fts");
  const exists = `SELECT EXISTS(SELECT 1 FROM ${fts} WHERE ${fts} MATCH ?) AS hit`;
  return [db.prepare(exists).bind(together), ...words.map((w) => db.prepare(exists).bind(ftsTerm(w, false)))];
}

function existsOf(probe: D1PreparedStatement[] | undefined): D1PreparedStatement[] {
  if (!probe) throw new Error("existence checks are made for first pages only");
  return probe;
}

/**
 * Each word as an FTS term the catalog has: the word itself, its nearest catalog word, or the
 * word as a prefix ("headl" → headlamp); undefined when it has none. `found` answers
 * existsStatements.
 */
async function correct(
  db: D1Database,
  key: string,
  words: readonly string[],
  found: ReadonlyArray<D1Result<unknown>>,
): Promise<Array<string | undefined> | "filtered"> {
  const fts = searchTable(key, "fts");
  const vocabulary = searchTable(key, "words");
  const hit = (i: number) => (found[i]?.results[0] as { hit?: number } | undefined)?.hit === 1;
  if (hit(0)) return "filtered";
  const missing = words.filter((_, i) => !hit(i + 1));
  if (missing.length === 0) return words.map((w) => ftsTerm(w, false));
  // Candidates share the first letter (an edit there is rare, and it keeps the scan small);
  // with them, whether the word begins a catalog word.
  const lookups = await db.batch<{ term: string; doc: number }>(
    missing.flatMap((w) => [
      db
        .prepare(`SELECT term, docs AS doc FROM ${vocabulary} WHERE term >= ? AND term < ?`)
        .bind(w.slice(0, 1), `${w.slice(0, 1)}\u{10ffff}`),
      db.prepare(`SELECT 1 AS term, 0 AS doc FROM ${fts} WHERE ${fts} MATCH ? LIMIT 1`).bind(ftsTerm(w, true)),
    ]),
  );
  const fixes = new Map<string, string | undefined>();
  missing.forEach((word, i) => {
    const max = allowedEdits(word);
    const candidates = max === 0 ? [] : (lookups[2 * i]?.results ?? []);
    // Catalog words are stemmed (socks → sock, hiking → hike): compare the word and its plain
    // stems first; only when nothing is near, a misspelt ending ("sleepign") counts one edit
    // more than the stem it hides ("sleep"), so "sandels" finds sandal, not sand.
    const nearest = (distance: (term: string) => number) => {
      let best: { term: string; d: number; doc: number } | undefined;
      for (const { term, doc } of candidates) {
        const d = distance(term);
        if (d > max) continue;
        if (!best || d < best.d || (d === best.d && doc > best.doc)) best = { term, d, doc };
      }
      return best;
    };
    const best =
      nearest((term) => Math.min(...stems(word).map((w) => editDistance(w, term, max)))) ??
      nearest((term) => {
        const tail = word.length - term.length;
        return term.length >= 4 && tail > 0 && tail <= 3
          ? editDistance(word.slice(0, term.length), term, max) + 1
          : max + 1;
      });
    const prefix = word.length >= 3 && (lookups[2 * i + 1]?.results.length ?? 0) > 0;
    fixes.set(word, best ? ftsTerm(best.term, false) : prefix ? ftsTerm(word, true) : undefined);
  });
  return words.map((w) => (fixes.has(w) ? fixes.get(w) : ftsTerm(w, false)));
}

/** The word and what it may be without an inflection (porter's stems in the vocabulary have none). */
function stems(word: string): string[] {
  const out = [word];
  for (const end of ["s", "es", "ing", "ed"]) {
    if (word.length > end.length + 2 && word.endsWith(end)) out.push(word.slice(0, -end.length));
  }
  return out;
}

type Row = { doc: number; id: string; pos: number | null; score: number };

/**
 * Matches ranked per query, at most: the first WINDOW matches in catalog order of each tier
 * (every word in the title; in title and attributes with one in the title; in title and
 * attributes; anywhere). The cost of a search is then
 * bounded whatever the catalog's size (D1 runs one query at a time per database), and title
 * matches, which rank first, are never crowded out by description ones. A page deeper than
 * the window, or filters that leave too few, widen it, up to MAX_WINDOW.
 */
export const WINDOW = 100;
export const MAX_WINDOW = 25_600;

type Page = D1SearchResult & {
  /** The answers of the statements page() was asked to run with its first window, if it ran them. */
  readonly probed?: ReadonlyArray<D1Result<unknown>>;
};

/** One page of matches (match === undefined: the catalog in its order) with the filters applied. */
async function page(
  db: D1Database,
  input: D1SearchInput,
  filter: VariantFilter,
  match: string | undefined,
  probe?: D1PreparedStatement[],
): Promise<Page> {
  const want = input.offset + input.limit;
  let titles: Row[] | undefined;
  if (match !== undefined) {
    // Title matches rank first: when they alone fill the page with one to spare, the other
    // tiers cannot change it (the common case for a product noun), and one scan answers.
    const k = want * 2 + 10;
    const raw = (await titleStatement(db, input, filter, match, k).all<Row>()).results;
    const passing = raw.filter((r) => r.pos !== null);
    if (passing.length > want) {
      passing.sort((a, b) => a.doc - b.doc);
      return {
        hits: passing.slice(input.offset, want).map((r) => ({ id: r.id, variant: r.pos ?? 0 })),
        total: undefined,
        more: true,
      };
    }
    // Every title match was read: the windows below need not scan the title tier again (for
    // words no title has together, that scan reads their whole postings).
    if (raw.length < k) titles = raw;
  }
  let probed: ReadonlyArray<D1Result<unknown>> | undefined;
  for (let k = Math.max(WINDOW, want * 2); ; ) {
    const window = Math.min(k, MAX_WINDOW);
    const statement = rankedStatement(db, input, filter, match, window, titles);
    let answer: D1Result<Ranked>;
    if (probe && probed === undefined && titles?.length === 0) {
      const [first, ...rest] = await db.batch([statement, ...probe]);
      answer = first as D1Result<Ranked>;
      probed = rest;
    } else answer = await statement.all<Ranked>();
    const seen = answer.results[0]?.seen ?? 0;
    const passing = answer.results[0]?.passing ?? 0;
    const rows = answer.results.filter((r) => r.doc !== null);
    rows.sort((a, b) => a.score - b.score || a.doc - b.doc);
    // Every match was seen when the window was not full: the count is exact.
    const exact = seen < window;
    if (passing >= want || exact || k >= MAX_WINDOW) {
      return {
        hits: rows.map((r) => ({ id: r.id, variant: r.pos ?? 0 })),
        total: exact ? passing : undefined,
        more: passing > want || (!exact && k < MAX_WINDOW),
        ...(probed ? { probed } : {}),
      };
    }
    // Selective filters: widen by what this window let through (with a margin), 4 to 16 times.
    const needed = Math.ceil((1.5 * want * Math.max(seen, window)) / Math.max(passing, 0.5));
    k = Math.min(k * 16, Math.max(k * 4, needed));
  }
}

/** A ranked window's page: its rows (none when the page is empty) with the window's counts on each. */
type Ranked = Row & { seen: number; passing: number };

interface Sql {
  readonly bind: (value: unknown) => string;
  readonly params: unknown[];
}

function sqlParams(): Sql {
  const params: unknown[] = [];
  return {
    params,
    bind: (value) => {
      params.push(value);
      return `?${params.length}`;
    },
  };
}

/** Title matches alone (tier 0), at most k, with their featured variants: every row, filtered or not. */
function titleStatement(
  db: D1Database,
  input: D1SearchInput,
  filter: VariantFilter,
  match: string,
  k: number,
): D1PreparedStatement {
  const q = sqlParams();
  const featured = featuredExpr(input, filter, q.bind);
  const tier = tierSql(searchTable(input.key, "fts"), q.bind(k), q.bind(`{title} : (${match})`), 0);
  const sql = `SELECT t.doc, d.id, ${featured} AS pos, 0 AS score FROM (${tier}) t CROSS JOIN ${searchTable(input.key, "doc")} d ON d.doc = t.doc`;
  return db.prepare(sql).bind(...q.params);
}

/**
 * One window ranked and cut to the page inside D1: only the page's rows come back, each with
 * the window's size (`seen`: the matches read) and how many of them pass the filters. Known
 * title matches (every one, from the title pass) are given as doc numbers instead of scanned.
 */
function rankedStatement(
  db: D1Database,
  input: D1SearchInput,
  filter: VariantFilter,
  match: string | undefined,
  k: number,
  titles: readonly Row[] | undefined,
): D1PreparedStatement {
  const doc = searchTable(input.key, "doc");
  const fts = searchTable(input.key, "fts");
  const q = sqlParams();
  const featured = featuredExpr(input, filter, q.bind);
  let ctes: string;
  if (match === undefined) {
    // Browse: the catalog in its order, filtered as it is read, until the window is full.
    ctes = `p AS (SELECT doc, id, pos, 0 AS score FROM (SELECT d.doc, d.id, ${featured} AS pos FROM ${doc} d) WHERE pos IS NOT NULL LIMIT ${q.bind(k)}),
      w AS (SELECT doc FROM p)`;
  } else {
    const limit = q.bind(k);
    // Tiers, as the KV index weighed words: every word in the title, then in the title and
    // attributes, then anywhere. Catalog order within a tier. No bm25: its IDF counts every
    // posting of every word, a cost that grows with the catalog whatever the LIMIT.
    // Several words: title and attributes together above attributes alone ("olive backpack":
    // a backpack in olive before an olive pack tagged backpacking), as the KV weights summed.
    const any = match.includes(" AND ") ? match.split(" AND ").join(" OR ") : undefined;
    const parts = [
      titles
        ? `SELECT value AS doc, 0 AS score FROM json_each(${q.bind(JSON.stringify(titles.map((t) => t.doc)))})`
        : tierSql(fts, limit, q.bind(`{title} : (${match})`), 0),
      ...(any ? [tierSql(fts, limit, q.bind(`({title attrs} : (${match})) AND ({title} : (${any}))`), 1)] : []),
      tierSql(fts, limit, q.bind(`{title attrs} : (${match})`), 2),
      tierSql(fts, limit, q.bind(match), 3),
    ];
    // CROSS JOIN keeps the window the outer loop: with a filter, SQLite's planner otherwise may
    // scan every product and probe the window (100,000 featured-variant lookups a query).
    ctes = `w AS (SELECT doc, min(score) AS score FROM (${parts.join(" UNION ALL ")}) GROUP BY doc),
      p AS MATERIALIZED (SELECT * FROM (SELECT w.doc, d.id, ${featured} AS pos, w.score FROM w CROSS JOIN ${doc} d ON d.doc = w.doc) WHERE pos IS NOT NULL)`;
  }
  const sql = `WITH ${ctes}
    SELECT c.seen, c.passing, x.doc, x.id, x.pos, x.score
    FROM (SELECT (SELECT count(*) FROM w) AS seen, (SELECT count(*) FROM p) AS passing) c
    LEFT JOIN (SELECT * FROM p ORDER BY score, doc LIMIT ${q.bind(input.limit)} OFFSET ${q.bind(input.offset)}) x ON 1`;
  return db.prepare(sql).bind(...q.params);
}

function tierSql(fts: string, limit: string, expr: string, rank: number): string {
  return `SELECT * FROM (SELECT rowid AS doc, ${rank} AS score FROM ${fts} WHERE ${fts} MATCH ${expr} LIMIT ${limit})`;
}

/** The featured variant's position, or NULL when the product is filtered out (categories, price, availability). */
function featuredExpr(input: D1SearchInput, filter: VariantFilter, bind: (v: unknown) => string): string {
  const pos = featuredSql(input, filter, bind);
  const cats = categorySql(filter, bind);
  return cats ? `CASE WHEN ${cats} THEN ${pos} END` : pos;
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
  return `(SELECT x.pos FROM ${v} x${join} WHERE x.doc = d.doc AND ${conds.join(" AND ")} ORDER BY x.pos LIMIT 1)`;
}

/** Whether the product (d) is in any wanted category or below one ("footwear" takes "footwear > running"). */
function categorySql(filter: VariantFilter, bind: (v: unknown) => string): string | undefined {
  const wanted = filter.categories ?? [];
  if (wanted.length === 0) return undefined;
  const ors = wanted.map(
    (w) => `c.value = ${bind(w)} OR substr(c.value, 1, ${bind(w.length + 3)}) = ${bind(`${w} > `)}`,
  );
  return `EXISTS (SELECT 1 FROM json_each(d.cats) c WHERE ${ors.join(" OR ")})`;
}
