/**
 * The order index's SQL, one text for both stores the issue asked to compare: the index
 * Durable Object (SqlStorage) and D1 (bench/order-index.ts). Statements are plain
 * `{text, params}`; each store runs them its own way. Rows are upserted keyed by order id
 * and the order's feed version, so an older or repeated delivery never overwrites a newer one.
 */
import type { OrderIndexEntry } from "../../src/order/index-entry";
import type { OrderListQuery } from "../../src/order/index-query";

export type Param = string | number | null;
export interface Statement {
  readonly text: string;
  readonly params: Param[];
}

/** The log object's one table (ORDER_LOG_NAME): append-only, the ids a rebuild re-pulls from their order objects. */
export const LOG_SCHEMA = "CREATE TABLE IF NOT EXISTS order_log (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)";

export const INDEX_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS order_index (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    total INTEGER NOT NULL,
    refunded INTEGER NOT NULL,
    currency TEXT NOT NULL,
    buyer_email TEXT,
    platform TEXT NOT NULL,
    webhook_failures INTEGER NOT NULL,
    last_webhook_failure_at INTEGER,
    number INTEGER
  )`,
  "CREATE INDEX IF NOT EXISTS order_index_created ON order_index (created_at, id)",
  // Covers the dashboard's per-day sums (no row lookups over a month of orders).
  "CREATE INDEX IF NOT EXISTS order_index_day ON order_index (created_at, total, refunded)",
  "CREATE INDEX IF NOT EXISTS order_index_status ON order_index (status, created_at, id)",
  "CREATE INDEX IF NOT EXISTS order_index_email ON order_index (buyer_email, created_at, id)",
  "CREATE INDEX IF NOT EXISTS order_index_webhook ON order_index (last_webhook_failure_at) WHERE last_webhook_failure_at IS NOT NULL",
  `CREATE TABLE IF NOT EXISTS order_lines (
    order_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    title TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    PRIMARY KEY (order_id, line)
  )`,
  // Covers the top-products sums.
  "CREATE INDEX IF NOT EXISTS order_lines_created ON order_lines (created_at, item_id, quantity, amount, title)",
];

const COLUMNS = [
  "id",
  "version",
  "created_at",
  "status",
  "total",
  "refunded",
  "currency",
  "buyer_email",
  "platform",
  "webhook_failures",
  "last_webhook_failure_at",
  "number",
] as const;

/**
 * Indexes made before order numbers have no `number` column: added once (the rebuild, or each
 * order's next feed, fills it). Run after INDEX_SCHEMA; `columns` are the table's present names.
 */
export function numberColumnMigration(columns: readonly string[]): string[] {
  return columns.includes("number") ? [] : ["ALTER TABLE order_index ADD COLUMN number INTEGER"];
}

/** The short order number's lookup (the console's "#1001" search); created after the migration. */
export const NUMBER_INDEX =
  "CREATE INDEX IF NOT EXISTS order_index_number ON order_index (number) WHERE number IS NOT NULL";

/** The statements that record one entry (the index row, its lines). */
export function upsertStatements(entry: OrderIndexEntry, version: number): Statement[] {
  const updates = COLUMNS.filter((c) => c !== "id")
    .map((c) => `${c} = excluded.${c}`)
    .join(", ");
  return [
    {
      text: `INSERT INTO order_index (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})
        ON CONFLICT (id) DO UPDATE SET ${updates} WHERE excluded.version >= order_index.version`,
      params: [
        entry.id,
        version,
        entry.created_at,
        entry.status,
        entry.total,
        entry.refunded,
        entry.currency,
        entry.buyer_email,
        entry.platform,
        entry.webhook_failures,
        entry.last_webhook_failure_at,
        entry.number ?? null,
      ],
    },
    // Lines are the order's as placed (original quantities): they never change after creation.
    ...entry.lines.map((l, i) => ({
      text: `INSERT OR IGNORE INTO order_lines (order_id, line, created_at, item_id, title, quantity, amount)
        VALUES (?, ?, ?, ?, ?, ?, ?)`,
      params: [entry.id, i, entry.created_at, l.item_id, l.title, l.quantity, l.amount],
    })),
  ];
}

/** One page, newest first, by keyset: asks for limit + 1 rows so the caller knows whether more follow. */
export function listStatement(query: OrderListQuery): Statement {
  const where: string[] = [];
  const params: Param[] = [];
  if (query.status) {
    where.push("status = ?");
    params.push(query.status);
  }
  if (query.from !== undefined) {
    where.push("created_at >= ?");
    params.push(query.from);
  }
  if (query.to !== undefined) {
    where.push("created_at < ?");
    params.push(query.to);
  }
  const search = query.search;
  if (search?.kind === "id" || search?.kind === "email_prefix") {
    // A prefix as a range, so the primary key or the email index serves it.
    const column = search.kind === "id" ? "id" : "buyer_email";
    where.push(`${column} >= ? AND ${column} < ?`);
    params.push(search.value, `${search.value}\u{10ffff}`);
  } else if (search?.kind === "email") {
    where.push("buyer_email = ?");
    params.push(search.value);
  } else if (search?.kind === "number") {
    where.push("number = ?");
    params.push(Number(search.value));
  }
  if (query.cursor) {
    where.push("(created_at, id) < (?, ?)");
    params.push(query.cursor.created_at, query.cursor.id);
  }
  params.push(query.limit + 1);
  return {
    text: `SELECT id, number, created_at, status, total, refunded, currency, buyer_email, platform, webhook_failures
      FROM order_index ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY created_at DESC, id DESC LIMIT ?`,
    params,
  };
}

const DAY_MS = 86_400_000;

/** The dashboard's figures since `since` (ms): per UTC day, by status, top products, webhook failures. */
export function statsStatements(since: number) {
  return {
    perDay: {
      text: `SELECT created_at / ${DAY_MS} AS day, COUNT(*) AS orders, SUM(total - refunded) AS revenue
        FROM order_index WHERE created_at >= ? GROUP BY day ORDER BY day`,
      params: [since],
    },
    byStatus: { text: "SELECT status, COUNT(*) AS orders FROM order_index GROUP BY status", params: [] },
    topProducts: {
      text: `SELECT item_id, MAX(title) AS title, SUM(quantity) AS quantity, SUM(amount) AS amount
        FROM order_lines WHERE created_at >= ? GROUP BY item_id ORDER BY quantity DESC, item_id LIMIT 10`,
      params: [since],
    },
    webhookFailureCount: {
      text: `SELECT COUNT(*) AS orders, COALESCE(SUM(webhook_failures), 0) AS attempts FROM order_index
        WHERE last_webhook_failure_at >= ?`,
      params: [since],
    },
    webhookFailures: {
      text: `SELECT id, created_at, platform, webhook_failures, last_webhook_failure_at FROM order_index
        WHERE last_webhook_failure_at >= ? ORDER BY last_webhook_failure_at DESC LIMIT 20`,
      params: [since],
    },
  } satisfies Record<string, Statement>;
}
