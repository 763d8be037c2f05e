/**
 * The search tables of one catalog version in D1 (issue 28). A load creates them under its own
 * key, fills them in batches while the old catalog is served, and the manifest naming the key
 * (`search`, kv-layout.ts) is the one switch, with the KV documents' prefix in the same write.
 *
 *   s_<key>_doc  doc (rowid, catalog order), id, handle, cats (JSON of normalized categories)
 *   s_<key>_var  doc, pos (merchant order), variant id, sku, price (minor units), available
 *   s_<key>_cat  category path → doc, for the categories filter (a prefix range per path)
 *   s_<key>_fts  FTS5, contentless: title, attributes (tags, categories, option values), description
 *   s_<key>_vocab  fts5vocab over it, and s_<key>_words: its words with their document counts,
 *                copied once when the load finishes, for typo correction
 */

import type { IndexableProduct } from "./search-index";
import { normalizeCategory } from "./text";

/** Keys are load ids ([0-9a-z]); anything else never reaches SQL. */
export function searchTable(key: string, table: "doc" | "var" | "cat" | "fts" | "vocab" | "words"): string {
  if (!/^[0-9a-z]{1,32}$/.test(key)) throw new Error(`bad search key ${JSON.stringify(key)}`);
  return `s_${key}_${table}`;
}

/** Store-wide tables (migrations/catalog/0001_search.sql), repeated so a local load needs no migration step. */
export const STORE_TABLES_SQL = [
  "CREATE TABLE IF NOT EXISTS search_versions (key TEXT PRIMARY KEY, created_at TEXT NOT NULL, products INTEGER NOT NULL DEFAULT 0, retired_at TEXT)",
  "CREATE TABLE IF NOT EXISTS search_live (variant_id TEXT PRIMARY KEY, s TEXT NOT NULL, v TEXT NOT NULL) WITHOUT ROWID",
];

export function createTablesSql(key: string): string[] {
  const t = (name: Parameters<typeof searchTable>[1]) => searchTable(key, name);
  return [
    `DROP TABLE IF EXISTS ${t("vocab")}`,
    `DROP TABLE IF EXISTS ${t("fts")}`,
    `DROP TABLE IF EXISTS ${t("doc")}`,
    `DROP TABLE IF EXISTS ${t("var")}`,
    `DROP TABLE IF EXISTS ${t("cat")}`,
    `CREATE TABLE ${t("doc")} (doc INTEGER PRIMARY KEY, id TEXT NOT NULL, handle TEXT, cats TEXT NOT NULL)`,
    `CREATE TABLE ${t("var")} (doc INTEGER NOT NULL, pos INTEGER NOT NULL, id TEXT NOT NULL, sku TEXT, price INTEGER NOT NULL, available INTEGER NOT NULL, PRIMARY KEY (doc, pos)) WITHOUT ROWID`,
    `CREATE TABLE ${t("cat")} (cat TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (cat, doc)) WITHOUT ROWID`,
    // Porter folds plurals (jackets → jacket); prefix indexes make "jack*" cheap. Contentless:
    // the documents are in KV. detail=full, since bm25 needs term frequencies (with
    // detail=column every score is 0).
    `CREATE VIRTUAL TABLE ${t("fts")} USING fts5(title, attrs, body, content='', prefix='2 3', tokenize='porter unicode61 remove_diacritics 2')`,
    `CREATE VIRTUAL TABLE ${t("vocab")} USING fts5vocab(${t("fts")}, 'row')`,
  ];
}

/** Indexes built once the rows are in: faster than keeping them up to date row by row. */
export function finishTablesSql(key: string): string[] {
  const t = (name: Parameters<typeof searchTable>[1]) => searchTable(key, name);
  return [
    `CREATE UNIQUE INDEX IF NOT EXISTS ${t("doc")}_id ON ${t("doc")} (id)`,
    `CREATE INDEX IF NOT EXISTS ${t("doc")}_handle ON ${t("doc")} (handle)`,
    `CREATE INDEX IF NOT EXISTS ${t("var")}_id ON ${t("var")} (id)`,
    `CREATE INDEX IF NOT EXISTS ${t("var")}_sku ON ${t("var")} (sku)`,
    // The vocabulary with its document counts, copied once: fts5vocab counts every posting of
    // every word it reads, so typo correction reads this table instead.
    `CREATE TABLE IF NOT EXISTS ${t("words")} (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID`,
    `INSERT OR REPLACE INTO ${t("words")} (term, docs) SELECT term, doc FROM ${t("vocab")}`,
    // One segment: a query then reads each word's postings from one place, not from every batch's.
    `INSERT INTO ${t("fts")} (${t("fts")}) VALUES ('optimize')`,
    "ANALYZE",
  ];
}

export function dropTablesSql(key: string): string[] {
  return (["vocab", "words", "fts", "doc", "var", "cat"] as const).map(
    (n) => `DROP TABLE IF EXISTS ${searchTable(key, n)}`,
  );
}

/** One product's rows, as JSON arrays the insert statements unpack with json_each. */
export interface SearchRows {
  readonly doc: [number, string, string | null, string];
  readonly fts: [number, string, string, string];
  readonly vars: Array<[number, number, string, string | null, number, 0 | 1]>;
  readonly cats: Array<[string, number]>;
}

export function searchRows(doc: number, product: IndexableProduct): SearchRows {
  const cats = [...new Set((product.categories ?? []).map((c) => normalizeCategory(c.value)))];
  const attrs = [
    ...(product.tags ?? []),
    ...(product.categories ?? []).map((c) => c.value),
    ...(product.options ?? []).flatMap((o) => o.values.map((v) => v.label)),
  ].join(" ");
  return {
    doc: [doc, product.id, product.handle ?? null, JSON.stringify(cats)],
    fts: [doc, product.title, attrs, descriptionText(product.description) ?? ""],
    vars: product.variants.map((v, pos) => [
      doc,
      pos,
      v.id,
      v.sku ?? null,
      v.price.amount,
      v.availability?.available === false ? 0 : 1,
    ]),
    cats: cats.map((cat) => [cat, doc]),
  };
}

function descriptionText(d: IndexableProduct["description"]): string | undefined {
  if (!d) return undefined;
  return d.plain ?? d.markdown ?? d.html?.replace(/<[^>]*>/g, " ");
}

/** A batch of products' rows as four statements, each one bound JSON value (D1 binds at most 100). */
export function insertSql(key: string, rows: readonly SearchRows[]): Array<{ statement: string; param: string }> {
  const t = (name: Parameters<typeof searchTable>[1]) => searchTable(key, name);
  const each = "FROM json_each(?1)";
  return [
    {
      statement: `INSERT INTO ${t("doc")} (doc, id, handle, cats) SELECT value->>0, value->>1, value->>2, value->>3 ${each}`,
      param: JSON.stringify(rows.map((r) => r.doc)),
    },
    {
      statement: `INSERT INTO ${t("fts")} (rowid, title, attrs, body) SELECT value->>0, value->>1, value->>2, value->>3 ${each}`,
      param: JSON.stringify(rows.map((r) => r.fts)),
    },
    {
      statement: `INSERT INTO ${t("var")} (doc, pos, id, sku, price, available) SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5 ${each}`,
      param: JSON.stringify(rows.flatMap((r) => r.vars)),
    },
    {
      statement: `INSERT INTO ${t("cat")} (cat, doc) SELECT value->>0, value->>1 ${each}`,
      param: JSON.stringify(rows.flatMap((r) => r.cats)),
    },
  ];
}

/** Products per insert batch: four statements whose JSON stays well under D1's 2 MB per value. */
export const SEARCH_BATCH = 1_000;

/**
 * Runs a batch's statements in one D1 batch (one transaction), once: a batch retried after it
 * was written (a step that failed after D1 answered) finds its first document and stops.
 */
export async function writeSearchRows(db: D1Database, key: string, rows: readonly SearchRows[]): Promise<void> {
  const first = rows[0]?.doc[0];
  if (first === undefined) return;
  const written = await db
    .prepare(`SELECT 1 AS hit FROM ${searchTable(key, "doc")} WHERE doc = ?`)
    .bind(first)
    .first();
  if (written) return;
  await db.batch(insertSql(key, rows).map(({ statement, param }) => db.prepare(statement).bind(param)));
}

/** Creates (or re-creates, for a retried load) one version's tables. */
export async function createSearchTables(db: D1Database, key: string, now: Date): Promise<void> {
  await db.batch([
    ...[...STORE_TABLES_SQL, ...createTablesSql(key)].map((sql) => db.prepare(sql)),
    db
      .prepare("INSERT OR REPLACE INTO search_versions (key, created_at, products, retired_at) VALUES (?, ?, 0, NULL)")
      .bind(key, now.toISOString()),
  ]);
}

export async function finishSearchTables(db: D1Database, key: string, products: number): Promise<void> {
  await db.batch([
    ...finishTablesSql(key).map((sql) => db.prepare(sql)),
    db.prepare("UPDATE search_versions SET products = ? WHERE key = ?").bind(products, key),
  ]);
}

/** Writes a whole catalog's search tables in batches (tests, the benchmark, the migration). */
export async function writeSearchCatalog(
  db: D1Database,
  key: string,
  products: Iterable<IndexableProduct>,
  now: Date,
  progress?: (written: number) => void,
): Promise<number> {
  await createSearchTables(db, key, now);
  let rows: SearchRows[] = [];
  let doc = 0;
  for (const product of products) {
    rows.push(searchRows(doc++, product));
    if (rows.length >= SEARCH_BATCH) {
      await writeSearchRows(db, key, rows);
      rows = [];
      progress?.(doc);
    }
  }
  await writeSearchRows(db, key, rows);
  await finishSearchTables(db, key, doc);
  return doc;
}

/** A new search key: [0-9a-z], the length of a load id. */
export function newSearchKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => "0123456789abcdefghijklmnopqrstuvwxyz"[b % 36]).join("");
}
