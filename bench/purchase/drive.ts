/**
 * The four-step purchase over REST, closed loop: create checkout (two items, a US address),
 * select shipping (express), complete (test payment), get order. One keep-alive socket per
 * client; every request must get its right answer, and a failed step ends its journey. The
 * same journey is spoken in our store's REST binding and in the reference server's.
 */
import http from "node:http";
import { ADDRESS, INSTRUMENT } from "../journey";
import { percentile, send } from "../load";

// biome-ignore lint/suspicious/noExplicitAny: -- answers are inspected structurally
type Json = any;

export const STEPS = ["create", "update", "complete", "get_order"] as const;
export type Step = (typeof STEPS)[number];

interface Call {
  readonly method: "POST" | "PUT" | "GET";
  readonly path: string;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
  readonly status: number;
}

class Failure extends Error {}

/** One server's dialect of the journey. */
export interface Dialect {
  create(lines: Json, buyer: Json, key: string): Call;
  /** Fails unless the created checkout is ready for what comes next. */
  created(answer: Json): void;
  update(created: Json, lines: Json, buyer: Json): Call;
  updated(answer: Json): void;
  complete(id: string, key: string): Call;
  /** The placed order's id. */
  orderId(completed: Json): string;
  getOrder(id: string): Call;
}

const must = (ok: boolean, what: string, answer: Json) => {
  if (!ok) throw new Failure(`${what}: ${JSON.stringify(answer).slice(0, 300)}`);
};

/** Our store (src/rest): /ucp/…, UCP statuses, the test payment handler. */
export const OURS: Dialect = {
  create: (line_items, buyer, key) => ({
    method: "POST",
    path: "/ucp/checkout-sessions",
    body: { line_items, buyer, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
    idempotencyKey: key,
    status: 201,
  }),
  created: (a) => must(a?.status === "ready_for_complete", "create", a),
  update(created, line_items, buyer) {
    const method = created.fulfillment?.methods?.[0];
    const group = method?.groups?.[0];
    const options: Json[] = group?.options ?? [];
    const option = options.find((o) => o.id === "express") ?? options[0];
    must(Boolean(method && group && option), "no shipping option", created);
    return {
      method: "PUT",
      path: `/ucp/checkout-sessions/${created.id}`,
      body: {
        line_items,
        buyer,
        fulfillment: { methods: [{ id: method.id, groups: [{ id: group.id, selected_option_id: option.id }] }] },
      },
      status: 200,
    };
  },
  updated: (a) => must(a?.status === "ready_for_complete", "update", a),
  complete: (id, key) => ({
    method: "POST",
    path: `/ucp/checkout-sessions/${id}/complete`,
    body: { payment: { instruments: [INSTRUMENT] } },
    idempotencyKey: key,
    status: 200,
  }),
  orderId(a) {
    must(a?.status === "completed" && typeof a?.order?.id === "string", "complete", a);
    return a.order.id;
  },
  getOrder: (id) => ({ method: "GET", path: `/ucp/orders/${id}`, status: 200 }),
};

/** The reference (samples rest/nodejs): its paths, its required fields, its mock handler. */
export const REFERENCE: Dialect = {
  create: (line_items, buyer, key) => ({
    method: "POST",
    path: "/checkout-sessions",
    body: {
      line_items,
      buyer,
      currency: "USD",
      payment: {},
      fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
    },
    idempotencyKey: key,
    status: 201,
  }),
  // It answers `incomplete` until completed; what must be there is the destination to select.
  created: (a) => must(typeof a?.fulfillment?.methods?.[0]?.destinations?.[0]?.id === "string", "create", a),
  update: (created, line_items, buyer) => ({
    method: "PUT",
    path: `/checkout-sessions/${created.id}`,
    body: {
      id: created.id,
      line_items,
      buyer,
      currency: "USD",
      payment: {},
      fulfillment: {
        methods: [
          {
            type: "shipping",
            selected_destination_id: created.fulfillment.methods[0].destinations[0].id,
            groups: [{ selected_option_id: "exp-ship-us" }],
          },
        ],
      },
    },
    status: 200,
  }),
  updated: (a) => must(Array.isArray(a?.totals) && a.totals.some((t: Json) => t.type === "fulfillment"), "update", a),
  complete: (id, key) => ({
    method: "POST",
    path: `/checkout-sessions/${id}/complete`,
    body: {
      payment_data: {
        id: "i1",
        handler_id: "mock_payment_handler",
        type: "card",
        brand: "visa",
        last_digits: "4242",
        credential: { type: "token", token: "success_token" },
      },
    },
    idempotencyKey: key,
    status: 200,
  }),
  orderId(a) {
    must(a?.status === "completed" && typeof a?.order_id === "string", "complete", a);
    return a.order_id;
  },
  getOrder: (id) => ({ method: "GET", path: `/orders/${id}`, status: 200 }),
};

export interface Target {
  readonly origin: string;
  readonly dialect: Dialect;
  readonly productIds: readonly string[];
  /** Headers client n sends on every request (its credentials and UCP-Agent profile). */
  headers(client: number): Record<string, string>;
}

export interface Tally {
  /** Journey latencies (ms) of journeys that got every answer right. */
  readonly journeys: number[];
  /** Order ids of those journeys. */
  readonly orders: string[];
  requests: number;
  failed: number;
  firstFailure?: string;
}

let journeyNumber = 0;

/** `concurrency` clients for `seconds`, each journey after the previous one. */
export async function drive(
  target: Target,
  concurrency: number,
  seconds: number,
  timeoutMs = 30_000,
  /** Steps per journey (1–4): shorter journeys measure what the first steps cost (bench/purchase/profile.ts). */
  steps: number = STEPS.length,
): Promise<Tally> {
  const tally: Tally = { journeys: [], orders: [], requests: 0, failed: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const deadline = performance.now() + seconds * 1000;
  const client = async (n: number) => {
    const headers = target.headers(n);
    const call = async (c: Call): Promise<Json> => {
      tally.requests++;
      const body = c.body === undefined ? undefined : JSON.stringify(c.body);
      const answer = await send(agent, new URL(c.path, target.origin), {
        method: c.method,
        body,
        timeoutMs,
        headers: {
          ...headers,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(c.idempotencyKey ? { "idempotency-key": c.idempotencyKey } : {}),
        },
      });
      if (answer.status !== c.status)
        throw new Failure(`HTTP ${answer.status} ${c.path}: ${answer.text.slice(0, 300)}`);
      return JSON.parse(answer.text);
    };
    const d = target.dialect;
    const ids = target.productIds;
    while (performance.now() < deadline) {
      const i = journeyNumber++;
      const lines = [0, 1].map((k) => ({ item: { id: ids[(2 * i + k) % ids.length] }, quantity: 1 }));
      const buyer = { email: `buyer${i}@example.com` };
      const t0 = performance.now();
      try {
        const created = await call(d.create(lines, buyer, `bench29-create-${process.pid}-${i}`));
        d.created(created);
        if (steps > 1) d.updated(await call(d.update(created, lines, buyer)));
        if (steps > 2) {
          const orderId = d.orderId(await call(d.complete(created.id, `bench29-complete-${process.pid}-${i}`)));
          if (steps > 3) {
            const order = await call(d.getOrder(orderId));
            if (order?.id !== orderId) throw new Failure(`get_order: ${JSON.stringify(order).slice(0, 300)}`);
          }
          tally.orders.push(orderId);
        }
        tally.journeys.push(performance.now() - t0);
      } catch (e) {
        tally.failed++;
        tally.firstFailure ??= e instanceof Error ? e.message : String(e);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, (_, n) => client(n)));
  } finally {
    agent.destroy();
  }
  return tally;
}

export function latencies(ms: readonly number[]): { p50: number; p99: number } {
  const sorted = Float64Array.from(ms).sort();
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}
