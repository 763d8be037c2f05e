/**
 * A Worker for bench/search-profile.ts: runs the Worker's own searchD1 on its D1 with every
 * statement timed inside workerd (no proxy from Node in the way), and explains its plans.
 */
import { searchD1 } from "../../src/catalog/search-d1";

interface Body {
  readonly key: string;
  readonly query: string;
  readonly plans: boolean;
}

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    const { key, query, plans } = (await request.json()) as Body;
    const db = env.DB;
    const steps: Array<{ ms: number; statement: string; plan?: string }> = [];
    const explain = async (sql: string, params: unknown[]) =>
      plans
        ? (
            await db
              .prepare(`EXPLAIN QUERY PLAN ${sql}`)
              .bind(...params)
              .all<{ detail: string }>()
          ).results
            .map((r) => r.detail)
            .join(" | ")
        : undefined;
    const wrap = (sql: string, params: unknown[] = []) => {
      const stmt = db.prepare(sql).bind(...params);
      const run = async <T>(what: () => Promise<T>) => {
        const t = performance.now();
        const out = await what();
        const ms = performance.now() - t;
        const plan = await explain(sql, params);
        steps.push({ ms, statement: sql, ...(plan ? { plan } : {}) });
        return out;
      };
      return {
        text: sql,
        params,
        stmt,
        bind: (...p: unknown[]) => wrap(sql, p),
        all: () => run(() => stmt.all()),
        first: () => run(() => stmt.first()),
      };
    };
    const proxy = {
      prepare: (sql: string) => wrap(sql),
      batch: async (list: Array<ReturnType<typeof wrap>>) => {
        const t = performance.now();
        const out = await db.batch(list.map((s) => s.stmt));
        steps.push({ ms: performance.now() - t, statement: `batch of ${list.length}: ${list[0]?.text ?? ""}` });
        return out;
      },
    } as unknown as D1Database;
    // Date.now() does not advance in workerd during I/O-free code; performance.now() after I/O does.
    const t = performance.now();
    const result = await searchD1(proxy, {
      key,
      stockVersion: "0",
      query,
      filter: {},
      offset: 0,
      limit: 10,
      fractionDigits: 2,
    });
    return Response.json({ ms: performance.now() - t, hits: result.hits.length, steps });
  },
};
