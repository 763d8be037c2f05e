/**
 * Order numbers under load (issue 26 item 2): 200 distinct checkouts completed at once get
 * exactly the numbers 1001..1200, no gap, no duplicate (this file's storage is fresh, so the
 * store's first number is the default start); the buyer's order page and the console show each.
 * The order webhook carries the number as the order's `label` in both protocol versions,
 * valid against the official schemas.
 */
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OrderObject } from "../../durable-objects/order-object";
import { DEFAULT_ORDER_NUMBER_START } from "../../src/config/order-number";
import { ADDRESS, type Json, pay, tool } from "../helpers/checkout";
import { openPage, signIn } from "../helpers/console";
import { meta, PROFILES, rpc } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { CURRENT, validateComposed } from "../helpers/official-schema-current";
import { getPage } from "../helpers/pages";

const COUNT = 200;
// Backordered: no stock limit, so every completion succeeds and only the numbering is under test.
const VARIANT = "var_trr_orange_12";

/** A checkout ready to pay, created from its own client address (anonymous budgets are per address). */
async function createCheckout(i: number): Promise<string> {
  const reply = await rpc(
    "tools/call",
    {
      name: "create_checkout",
      arguments: {
        meta: meta(),
        checkout: {
          line_items: [{ item: { id: VARIANT }, quantity: 1 }],
          buyer: { email: `buyer${i}@example.com` },
          fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        },
      },
    },
    { "cf-connecting-ip": `10.200.${Math.floor(i / 100)}.${(i % 100) + 1}` },
  );
  const id = reply.body.result?.structuredContent?.id;
  expect(id, JSON.stringify(reply.body)).toMatch(/^chk_/);
  return id;
}

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, j) => make(start + j));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

describe("order numbers under concurrency", { timeout: 240_000 }, () => {
  it(`${COUNT} concurrent completions of distinct checkouts take exactly ${DEFAULT_ORDER_NUMBER_START}..${DEFAULT_ORDER_NUMBER_START + COUNT - 1}`, async () => {
    const checkouts = await inBatches(COUNT, 25, createCheckout);
    const started = Date.now();
    // All at once: the completions, their charges and their number requests interleave freely.
    const replies = await Promise.all(
      checkouts.map((id) => tool("complete_checkout", { id, checkout: pay("success_token") }, crypto.randomUUID())),
    );
    const elapsed = Date.now() - started;
    const orders = replies.map((r) => {
      const done = r.body.result?.structuredContent;
      expect(done?.status, JSON.stringify(r.body).slice(0, 500)).toBe("completed");
      return done.order as { id: string; label: string; permalink_url: string };
    });
    const numbers = orders.map((o) => Number(/^#(\d+)$/.exec(o.label)?.[1]));
    const sorted = [...numbers].sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(COUNT);
    expect(sorted).toEqual(Array.from({ length: COUNT }, (_, i) => DEFAULT_ORDER_NUMBER_START + i));
    console.log(`${COUNT} concurrent completions: ${elapsed} ms`);

    // Visible to buyer and merchant: the buyer's order page and the console's order page.
    const sample = orders[COUNT - 1] as (typeof orders)[number];
    const page = await getPage(new URL(sample.permalink_url).pathname);
    expect(page.html).toContain(`<strong>${sample.label}</strong>`);
    const browser = await signIn();
    const detail = await openPage(`/admin/orders/${sample.id}`, browser);
    expect(detail.html).toMatch(new RegExp(`<h1 class="fit">Order ${sample.label} `));
  });
});

/** The order's delivered webhooks, running its alarm until the first arrives. */
async function webhookBodies(orderId: string): Promise<Json[]> {
  const stub = env.ORDER.getByName(orderId) as DurableObjectStub<OrderObject>;
  for (let round = 0; round < 10; round++) {
    const res = await fetch(`https://fixtures.test/webhooks?order=${orderId}`);
    const got = ((await res.json()) as { deliveries: Array<{ body: string; status: number }> }).deliveries;
    const ok = got.filter((d) => d.status === 200);
    if (ok.length > 0) return ok.map((d) => JSON.parse(d.body));
    await runDurableObjectAlarm(stub);
  }
  return [];
}

describe("the order webhook carries the number", { timeout: 60_000 }, () => {
  it.each([
    ["2026-04-08", `${PROFILES}/webhooks.json`],
    ["2026-08-25", `${PROFILES}/v2026-08-25/webhooks.json`],
  ])("as the order's label at %s, schema-valid", async (version, profile) => {
    const opened = await tool(
      "create_checkout",
      {
        checkout: {
          line_items: [{ item: { id: VARIANT }, quantity: 1 }],
          buyer: { email: "jane@example.com" },
          fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        },
      },
      undefined,
      profile,
    );
    const checkout = opened.body.result.structuredContent;
    const reply = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
      profile,
    );
    const done = reply.body.result.structuredContent;
    expect(done.status, JSON.stringify(done)).toBe("completed");
    const [created] = await webhookBodies(done.order.id);
    expect(created?.ucp.version).toBe(version);
    expect(created?.id).toBe(done.order.id);
    expect(created?.label).toBe(done.order.label);
    expect(created?.label).toMatch(/^#\d+$/);
    if (version === "2026-04-08") expect(validateOfficial(OFFICIAL.order, created).errors).toEqual([]);
    else expect(validateComposed(CURRENT.order, "dev.ucp.shopping.order", created)).toEqual([]);
  });
});
