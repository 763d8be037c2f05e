/**
 * Short order numbers (issue 25 item 3): each order gets the next number from the store's one
 * allocator at creation, as its `label` ("#1001") on complete_checkout and get_order at both
 * versions (schema-valid), the same one on every replay (a repeated key, a crashed creation
 * retried), never reused; shown on the confirmation, the order page, the email and the
 * console, which finds an order by it. An index made before numbers gains the column.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OrderBook } from "../../durable-objects/order/order-book";
import type { OrderIndexObject } from "../../durable-objects/order-index-object";
import type { OrderObject } from "../../durable-objects/order-object";
import worker from "../../src/index";
import { ORDER_INDEX_NAME } from "../../src/order/index-entry";
import { ORDER_NUMBERS_NAME } from "../../src/order/order-number";
import { ADDRESS, type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { openPage, signIn } from "../helpers/console";
import { PROFILES } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { CURRENT, validateComposed, validateCurrent } from "../helpers/official-schema-current";
import { orderObject, orderStub } from "../helpers/order-home";
import { getPage } from "../helpers/pages";

const CURRENT_PROFILE = `${PROFILES}/v2026-08-25/full.json`;
const numbers = () => env.ORDER_INDEX.getByName(ORDER_NUMBERS_NAME) as DurableObjectStub<OrderIndexObject>;

afterEach(() => vi.restoreAllMocks());

async function placed(profile?: string): Promise<Json> {
  const created = await tool(
    "create_checkout",
    {
      checkout: {
        line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
      },
    },
    undefined,
    profile,
  );
  const checkout = created.body.result.structuredContent;
  const reply = await tool(
    "complete_checkout",
    { id: checkout.id, checkout: pay("success_token") },
    crypto.randomUUID(),
    profile,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const done = reply.body.result.structuredContent;
  expect(done.status, JSON.stringify(done.messages)).toBe("completed");
  // The buyer's page of the checkout (a completed one lists no continue_url): the confirmation.
  return { ...done, page: checkout.continue_url };
}

const numberOf = (label: string) => Number(label.replace(/^#/, ""));

describe("short order numbers", { timeout: 60_000 }, () => {
  it("the allocator: one number per order id, the next after the highest, a raised start skips ahead, never reused", async () => {
    const a = await numbers().allocateNumber("ord_test_a", 1001);
    expect(await numbers().allocateNumber("ord_test_a", 1001)).toBe(a);
    const b = await numbers().allocateNumber("ord_test_b", 1001);
    expect(b).toBe(a + 1);
    expect(await numbers().allocateNumber("ord_test_c", 50_000)).toBe(Math.max(50_000, b + 1));
    // Lowering the start reuses nothing.
    expect(await numbers().allocateNumber("ord_test_d", 1)).toBeGreaterThan(b + 1);
  });

  it("orders are labelled in sequence, at both versions, valid against the official schemas", async () => {
    const first = await placed();
    expect(first.order.label).toMatch(/^#\d+$/);
    const order = (await tool("get_order", { id: first.order.id }, undefined)).body.result.structuredContent;
    expect(order.label).toBe(first.order.label);
    expect(validateOfficial(OFFICIAL.order, order).errors).toEqual([]);

    const second = await placed(CURRENT_PROFILE);
    expect(numberOf(second.order.label)).toBe(numberOf(first.order.label) + 1);
    expect(validateComposed(CURRENT.checkout, "dev.ucp.shopping.checkout", second)).toEqual([]);
    const current = (await tool("get_order", { id: second.order.id }, undefined, CURRENT_PROFILE)).body.result
      .structuredContent;
    expect(current.label).toBe(second.order.label);
    expect(validateCurrent(CURRENT.order, current).errors).toEqual([]);
  });

  it("a replayed completion and a creation that crashed keep the order's one number", async () => {
    const checkout = await readyCheckout([{ id: "var_abc123_blue_10", quantity: 1 }]);
    const key = crypto.randomUUID();
    // The order's creation dies once (in its checkout's object since issue 29): the number was given, the order not yet made.
    const create = vi.spyOn(OrderBook.prototype, "create").mockImplementationOnce(() => {
      throw new Error("crash: the order object died during create");
    });
    const crashed = await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, key);
    expect(crashed.body.result?.structuredContent?.status).not.toBe("completed");
    create.mockRestore();
    const retried = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    const done = retried.body.result.structuredContent;
    expect(done.status, JSON.stringify(done)).toBe("completed");
    const again = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(again.body.result.structuredContent.order.label).toBe(done.order.label);
    // The next order takes the next number: none was spent on the crash.
    const next = await placed();
    expect(numberOf(next.order.label)).toBe(numberOf(done.order.label) + 1);
  });

  it("a declined charge spends no number: the next order placed takes the next one (decisions/orders.md, issue 26)", async () => {
    const before = await placed();
    // Stock held, then the charge declined, and the buyer never comes back.
    const abandoned = await readyCheckout([{ id: "var_abc123_blue_10", quantity: 1 }]);
    const declined = await tool(
      "complete_checkout",
      { id: abandoned.id, checkout: pay("fail_token") },
      crypto.randomUUID(),
    );
    const open = declined.body.result.structuredContent;
    expect(open.status, JSON.stringify(open)).toBe("ready_for_complete");
    expect(open.order).toBeUndefined();
    const next = await placed();
    expect(numberOf(next.order.label)).toBe(numberOf(before.order.label) + 1);
  });

  it("the confirmation, the order page, the email and the console show it; the console finds the order by it", async () => {
    const log = vi.spyOn(console, "log");
    const done = await placed();
    const label: string = done.order.label;

    const order = await getPage(new URL(done.order.permalink_url).pathname);
    expect(order.html).toContain(`<strong>${label}</strong>`);
    // The confirmation email (logged: no mail service in tests) names it in its subject.
    await vi.waitFor(() =>
      expect(log.mock.calls.some(([line]) => String(line).includes(`order ${label} confirmed`))).toBe(true),
    );

    const confirmation = await getPage(new URL(done.page).pathname);
    expect(confirmation.html).toContain(`<strong class="order-id">${label}</strong>`);

    const browser = await signIn();
    const list = await openPage(`/admin/orders?q=${encodeURIComponent(label)}`, browser);
    expect(list.html).toContain(`<a href="/admin/orders/${done.order.id}">${label}</a>`);
    expect((await openPage(`/admin/orders?q=${numberOf(label)}`, browser)).html).toContain(`>${label}</a>`);
    const detail = await openPage(`/admin/orders/${done.order.id}`, browser);
    expect(detail.html).toMatch(new RegExp(`<h1 class="fit">Order ${label} `));
  });

  it("an index made before numbers gains the column, and lists its older rows without one", async () => {
    const index = env.ORDER_INDEX.getByName(`${ORDER_INDEX_NAME}-old`) as DurableObjectStub<OrderIndexObject>;
    await runInDurableObject(index, (_o: OrderIndexObject, state) => {
      state.storage.sql.exec(`CREATE TABLE order_index (id TEXT PRIMARY KEY, version INTEGER NOT NULL,
        created_at INTEGER NOT NULL, status TEXT NOT NULL, total INTEGER NOT NULL, refunded INTEGER NOT NULL,
        currency TEXT NOT NULL, buyer_email TEXT, platform TEXT NOT NULL, webhook_failures INTEGER NOT NULL,
        last_webhook_failure_at INTEGER)`);
      state.storage.sql.exec(
        "INSERT INTO order_index VALUES ('ord_old', 1, 1000, 'processing', 500, 0, 'USD', NULL, 'p', 0, NULL)",
      );
    });
    const before = await index.list({ limit: 10 });
    expect(before.orders.map((o) => [o.id, o.number])).toEqual([["ord_old", null]]);
    const entry = {
      id: "ord_new",
      number: 7,
      created_at: 2000,
      status: "processing" as const,
      total: 100,
      refunded: 0,
      currency: "USD",
      buyer_email: null,
      platform: "p",
      webhook_failures: 0,
      last_webhook_failure_at: null,
      lines: [],
    };
    await index.upsert(entry, 1);
    const after = await index.list({ limit: 10, search: { kind: "number", value: "7" } });
    expect(after.orders.map((o) => [o.id, o.number])).toEqual([["ord_new", 7]]);
  });
});

/** The confirmation page under other vars (a fresh env object: the config caches per env). */
async function confirmationWith(vars: Record<string, unknown>, url: string): Promise<string> {
  const request = new Request(url, { headers: { "cf-connecting-ip": "10.9.8.7" } });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars } as Env);
  expect(res.status).toBe(200);
  return res.text();
}

const MAILGUN = {
  MAILGUN_API_KEY: "key-test",
  MAILGUN_DOMAIN: "mg.shop.example.com",
  EMAIL_FROM: "Demo Outfitters <orders@mg.shop.example.com>",
};

describe("the confirmation says an email was sent only when one was", { timeout: 60_000 }, () => {
  it("no mail service: no email is promised; with one: sent, on its way or failed, as the order's outbox says", async () => {
    const done = await placed();
    const url = done.page as string;
    const plain = await confirmationWith({}, url);
    expect(plain).toContain("Thank you for your order");
    expect(plain).not.toMatch(/confirmation (email )?(is sent|to jane)|emailed/i);

    const order = orderStub(done.order.id);
    const object = await orderObject(done.order.id);
    // The order's own (log) sender marked it sent once it ran.
    await vi.waitFor(async () => expect((await order.outbox())[0]?.sent_at).not.toBeNull());
    expect(await confirmationWith(MAILGUN, url)).toContain("<p>We emailed a confirmation to jane@example.com.</p>");

    const setOutbox = (sent: number | null, failed: number | null) =>
      runInDurableObject(object, (_o: OrderObject, state) => {
        state.storage.sql.exec("UPDATE outbox SET sent_at = ?, failed_at = ?", sent, failed);
      });
    await setOutbox(null, null);
    expect(await confirmationWith(MAILGUN, url)).toContain(
      "<p>A confirmation email is on its way to jane@example.com.</p>",
    );
    await setOutbox(null, Date.now());
    expect(await confirmationWith(MAILGUN, url)).toContain(
      "<p>We could not email a confirmation to jane@example.com. Keep the link to your order status below.</p>",
    );
  });
});
