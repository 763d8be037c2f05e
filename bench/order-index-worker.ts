/**
 * The Worker bench/order-index.ts runs in Miniflare: the real OrderIndexObject beside a D1
 * database holding the same schema and answering the same statements
 * (durable-objects/order-index/queries.ts). Each request times one store call from inside
 * the Worker (the clock advances across the call's I/O): the server time a console page pays.
 */

import {
  INDEX_SCHEMA,
  listStatement,
  type Statement,
  statsStatements,
  upsertStatements,
} from "../durable-objects/order-index/queries";
import type { OrderIndexEntry } from "../src/order/index-entry";
import {
  type OrderListPage,
  type OrderListQuery,
  type OrderListRow,
  pageOf,
  parseListQuery,
  statsSince,
} from "../src/order/index-query";

// The object's class is bundled beside this module by bench/order-index.ts (its entry
// re-exports OrderIndexObject): naming it here would pull the Worker's Env into the scripts'
// type check. These are the calls the bench makes.
interface IndexStub {
  upsertMany(rows: ReadonlyArray<{ entry: OrderIndexEntry; version: number }>): Promise<void>;
  list(query: OrderListQuery): Promise<OrderListPage>;
  stats(now: number): Promise<{ per_day: readonly unknown[] }>;
}

interface BenchEnv {
  readonly INDEX: { getByName(name: string): IndexStub };
  readonly DB: D1Database;
}

const d1 = (db: D1Database, s: Statement) => db.prepare(s.text).bind(...s.params);

async function d1Stats(db: D1Database, now: number) {
  const q = statsStatements(statsSince(now));
  return db.batch([
    d1(db, q.perDay),
    d1(db, q.byStatus),
    d1(db, q.topProducts),
    d1(db, q.webhookFailureCount),
    d1(db, q.webhookFailures),
  ]);
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    const backend = url.searchParams.get("backend");
    const index = env.INDEX.getByName("orders");
    if (url.pathname === "/seed") {
      const entries = (await request.json()) as OrderIndexEntry[];
      if (backend === "do") await index.upsertMany(entries.map((entry) => ({ entry, version: 1 })));
      else {
        await env.DB.batch(INDEX_SCHEMA.map((text) => env.DB.prepare(text)));
        await env.DB.batch(entries.flatMap((e) => upsertStatements(e, 1)).map((s) => d1(env.DB, s)));
      }
      return new Response("ok");
    }
    const started = performance.now();
    let rows = 0;
    if (url.pathname === "/list") {
      const parsed = parseListQuery(url.searchParams);
      if (!("query" in parsed)) return Response.json(parsed, { status: 400 });
      const { query } = parsed;
      if (backend === "do") rows = (await index.list(query)).orders.length;
      else {
        const result = await d1(env.DB, listStatement(query)).all<OrderListRow>();
        rows = pageOf(result.results, query.limit).orders.length;
      }
    } else if (url.pathname === "/stats") {
      const now = Number(url.searchParams.get("now"));
      const part = url.searchParams.get("part") as keyof ReturnType<typeof statsStatements> | null;
      if (part) rows = (await d1(env.DB, statsStatements(statsSince(now))[part]).all()).results.length;
      else if (backend === "do") rows = (await index.stats(now)).per_day.length;
      else rows = (await d1Stats(env.DB, now)).length;
    } else return new Response("no route", { status: 404 });
    return Response.json({ ms: performance.now() - started, rows });
  },
};
