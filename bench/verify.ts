/**
 * One-off correctness checks before timing, with full JSON parsing: a fast wrong answer
 * must fail the run rather than produce a flattering number.
 */
import http from "node:http";
import { post } from "./load";
import { cartCall, cartLines, getProductBody, MCP_PATH, searchBody } from "./scenarios";
import { BASELINE_PATH } from "./server";

export interface Verified {
  /** First search on a fresh isolate: profile fetch + manifest + index load and hydration. */
  readonly coldSearchMs: number;
  /** Matches per query (pagination.total_count), to show how broad the queries are. */
  readonly totalCounts: { min: number; median: number; max: number };
}

interface RpcReply {
  result?: { structuredContent?: Record<string, unknown> };
  error?: unknown;
}

export async function verify(
  origin: string,
  queries: readonly string[],
  productIds: readonly string[],
): Promise<Verified> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const call = async (path: string, body: string): Promise<RpcReply> => {
      const { status, text } = await post(agent, new URL(`${origin}${path}`), body, 30_000);
      if (status !== 200) throw new Error(`HTTP ${status} from ${path}: ${text.slice(0, 500)}\n  request: ${body}`);
      const reply = JSON.parse(text) as RpcReply;
      if (reply.error || !reply.result)
        throw new Error(`JSON-RPC error from ${path}: ${text.slice(0, 500)}\n  request: ${body}`);
      return reply;
    };
    await call(BASELINE_PATH, searchBody(1, "warm-up"));

    const counts: number[] = [];
    let coldSearchMs = 0;
    for (const [i, query] of queries.entries()) {
      const t0 = performance.now();
      const content = (await call(MCP_PATH, searchBody(i + 1, query))).result?.structuredContent;
      if (i === 0) coldSearchMs = performance.now() - t0;
      const products = content?.products as unknown[] | undefined;
      const total = (content?.pagination as { total_count?: number } | undefined)?.total_count ?? 0;
      if (!products?.length || !(total > 0)) {
        throw new Error(`search "${query}" returned ${products?.length ?? 0} products, total_count ${total}`);
      }
      counts.push(total);
    }

    // A sample of the rotation, not all 1,000: enough to catch id mix-ups.
    for (const [i, id] of productIds.slice(0, 25).entries()) {
      const content = (await call(MCP_PATH, getProductBody(i + 1, id))).result?.structuredContent;
      const got = (content?.product as { id?: string } | undefined)?.id;
      if (got !== id) throw new Error(`get_product ${id} returned product ${got ?? "(none)"}`);
    }
    counts.sort((a, b) => a - b);
    return {
      coldSearchMs,
      totalCounts: {
        min: counts[0] ?? 0,
        median: counts[counts.length >> 1] ?? 0,
        max: counts[counts.length - 1] ?? 0,
      },
    };
  } finally {
    agent.destroy();
  }
}

/** Creates `count` carts for the get/update scenarios, checking each answer fully. */
export async function makeCarts(origin: string, productIds: readonly string[], count: number): Promise<string[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const body = cartCall(i + 1, "create_cart", { cart: { line_items: cartLines(productIds, i) } });
      const { status, text } = await post(agent, new URL(`${origin}${MCP_PATH}`), body, 30_000);
      const cart = (JSON.parse(text) as RpcReply).result?.structuredContent as
        | { id?: string; line_items?: unknown[]; totals?: unknown[] }
        | undefined;
      if (status !== 200 || !cart?.id || cart.line_items?.length !== 2 || cart.totals?.length !== 2) {
        throw new Error(`create_cart failed (HTTP ${status}): ${text.slice(0, 500)}`);
      }
      ids.push(cart.id);
    }
    return ids;
  } finally {
    agent.destroy();
  }
}
