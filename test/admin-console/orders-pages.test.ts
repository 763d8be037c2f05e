/**
 * The console's order pages (issue 13 item 2) in workerd, as a signed-in browser uses them:
 * the list (filters, search, pages), an order's page, and its confirmed, idempotent actions
 * through the JSON admin API's own path; and the JSON list and read for Bearer scripts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { ADMIN_TOKEN, type Browser, formFor, ORIGIN, openPage, postForm, signIn } from "../helpers/console";
import { FULL_PROFILE, PROFILES } from "../helpers/mcp";
import { locationPath } from "../helpers/pages";
import { getOrder, placeOrder } from "../order/order-helpers";

let ipCounter = 0;
const browser = async (): Promise<Browser> => signIn({ ip: `198.51.100.${++ipCounter}` });

const bearer = (path: string) =>
  exports.default.fetch(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

async function orderPage(id: string, b: Browser) {
  const page = await openPage(`/admin/orders/${id}`, b);
  expect(page.res.status, page.html.slice(0, 500)).toBe(200);
  return page.html;
}

// Placing orders through the whole pipeline is slow on a busy machine (the first one warms it).
const SLOW = { timeout: 30_000 };

describe("the order list", () => {
  it("lists a new order with status, total, buyer, platform and created time; search finds it", SLOW, async () => {
    const b = await browser();
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 2 }]);
    const order = await getOrder(orderId);
    const total = order.totals.find((t: { type: string }) => t.type === "total").amount;
    const { res, html } = await openPage(`/admin/orders?q=${orderId}`, b);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const row = html.match(
      new RegExp(`<tr>\\s*<td class="fit"><a href="/admin/orders/${orderId}">[\\s\\S]*?</tr>`),
    )?.[0];
    expect(row, html).toBeDefined();
    expect(row).toContain("Processing");
    expect(row).toContain("jane@example.com");
    expect(row).toContain(new URL(FULL_PROFILE).host);
    expect(row).toContain(`$${(total / 100).toFixed(2)}`);
    expect(row).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M UTC/);
    const byEmail = await openPage("/admin/orders?q=JANE%40example.com&status=processing", b);
    expect(byEmail.html).toContain(`/admin/orders/${orderId}"`);
    const other = await openPage("/admin/orders?q=nobody%40example.com", b);
    expect(other.html).toContain("No orders match.");
  });

  it("pages with an Older orders link that carries the filters and a cursor", async () => {
    const b = await browser();
    await placeOrder([{ id: "item_123", quantity: 1 }]);
    await placeOrder([{ id: "item_123", quantity: 1 }]);
    const first = await openPage("/admin/orders?limit=1&status=processing", b);
    const next = /href="(\/admin\/orders\?[^"]*cursor=[^"]*)" rel="next"/
      .exec(first.html)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(next).toContain("status=processing");
    const firstId = /href="\/admin\/orders\/(ord_[^"]+)"/.exec(first.html)?.[1];
    const second = await openPage(next ?? "", b);
    const secondId = /href="\/admin\/orders\/(ord_[^"]+)"/.exec(second.html)?.[1];
    expect(secondId).toBeDefined();
    expect(secondId).not.toBe(firstId);
    expect(second.html).toContain("Newest orders");
  });

  it("names a bad filter (400), never a 5xx", async () => {
    const b = await browser();
    const { res, html } = await openPage("/admin/orders?status=lost&from=yesterday", b);
    expect(res.status).toBe(400);
    expect(html).toContain("status: one of processing");
    expect(html).toContain("from: a date as YYYY-MM-DD");
  });
});

describe("an order's page and actions", () => {
  it("shows lines, totals, buyer, address, platform, timeline and the action forms with idempotency keys", async () => {
    const b = await browser();
    const { orderId } = await placeOrder([
      { id: "item_123", quantity: 2 },
      { id: "item_456", quantity: 1 },
    ]);
    const order = await getOrder(orderId);
    const html = await orderPage(orderId, b);
    for (const line of order.line_items) expect(html).toContain(line.item.title);
    expect(html).toContain("123 Main St");
    expect(html).toContain("jane@example.com");
    expect(html).toContain(new URL(FULL_PROFILE).host);
    expect(html).toContain("Placed by");
    for (const action of ["ship", "refund", "cancel"]) {
      const form = formFor(html, `/admin/orders/${orderId}/${action}`);
      expect(form).toMatch(/name="idempotency_key" value="[0-9a-f-]{36}"/);
      expect(form).toMatch(/name="confirm" value="yes" required/);
    }
  });

  it("ship: refused unconfirmed; confirmed, recorded once even when the form is sent twice", async () => {
    const b = await browser();
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const html = await orderPage(orderId, b);
    const action = `/admin/orders/${orderId}/ship`;
    const unconfirmed = await postForm(html, action, { carrier: "UPS", tracking_number: "1Z999" }, b);
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("confirm: tick the box to confirm");
    expect((await getOrder(orderId)).fulfillment.events).toEqual([]);
    const fields = {
      carrier: "UPS",
      tracking_number: "1Z999",
      tracking_url: "https://track.example/1Z999",
      confirm: "yes",
    };
    const shipped = await postForm(html, action, fields, b);
    expect(shipped.status).toBe(303);
    expect(locationPath(shipped)).toBe(`/admin/orders/${orderId}`);
    const again = await postForm(html, action, fields, b);
    expect(again.status).toBe(303);
    const events = (await getOrder(orderId)).fulfillment.events;
    expect(
      events.map((e: { type: string; tracking_number: string; carrier: string }) => [
        e.type,
        e.carrier,
        e.tracking_number,
      ]),
    ).toEqual([["shipped", "UPS", "1Z999"]]);
    const after = await orderPage(orderId, b);
    expect(after).toContain("Shipped");
    expect(after).toContain('href="https://track.example/1Z999"');
    // The same key with another change is a conflict, not a second shipment.
    const conflict = await postForm(html, action, { ...fields, tracking_number: "OTHER" }, b);
    expect(conflict.status).toBe(409);
    const delivered = await postForm(after, `/admin/orders/${orderId}/deliver`, { confirm: "yes" }, b);
    expect(delivered.status).toBe(303);
    expect(await orderPage(orderId, b)).toContain('<span class="status">Delivered</span>');
  });

  it("refund in the store's currency (minor units on the order), then cancel", async () => {
    const b = await browser();
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    let html = await orderPage(orderId, b);
    const bad = await postForm(html, `/admin/orders/${orderId}/refund`, { amount: "12.345", confirm: "yes" }, b);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("amount: an amount in USD");
    const refund = await postForm(
      html,
      `/admin/orders/${orderId}/refund`,
      { amount: "1.50", description: "Scratch", confirm: "yes" },
      b,
    );
    expect(refund.status).toBe(303);
    const adjustments = (await getOrder(orderId)).adjustments;
    expect(adjustments.map((a: { type: string; totals: unknown }) => [a.type, a.totals])).toEqual([
      ["refund", [{ type: "total", amount: -150 }]],
    ]);
    const back = await openPage(refund.headers.get("location") ?? "", b);
    expect(back.html).toContain("Refund recorded.");
    html = back.html;
    const cancel = await postForm(html, `/admin/orders/${orderId}/cancel`, { confirm: "yes" }, b);
    expect(cancel.status).toBe(303);
    const canceled = await orderPage(orderId, b);
    expect(canceled).toContain("Canceled");
    expect(canceled).not.toContain(`action="/admin/orders/${orderId}/cancel"`);
  });

  it("refuses a form without the session's _csrf and changes nothing", async () => {
    const b = await browser();
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const html = await orderPage(orderId, b);
    const res = await postForm(html, `/admin/orders/${orderId}/cancel`, { _csrf: "forged", confirm: "yes" }, b);
    expect(res.status).toBe(403);
    expect((await getOrder(orderId)).adjustments).toEqual([]);
  });

  it("an unknown or forged order id is a 404 page", async () => {
    const b = await browser();
    const { res } = await openPage("/admin/orders/ord_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", b);
    expect(res.status).toBe(404);
  });
});

describe("webhooks and the index from the console", () => {
  it("retry now sends an undelivered webhook at once; the failures reach the list", SLOW, async () => {
    const b = await browser();
    const profile = `${PROFILES}/webhooks-flaky.json`;
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }], {}, profile);
    const done = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
      profile,
    );
    const orderId: string = done.body.result.structuredContent.order.id;
    const attempts = async () => {
      const log = (await (await bearer(`/admin/orders/${orderId}/webhooks`)).json()) as {
        webhooks: Array<{ delivered_at: number | null; deliveries: Array<{ status: number | null }> }>;
      };
      return log.webhooks[0];
    };
    let before = (await attempts())?.deliveries.length ?? 0;
    for (let round = 0; round < 6 && (await attempts())?.delivered_at === null; round++) {
      const html = await orderPage(orderId, b);
      const res = await postForm(html, `/admin/orders/${orderId}/retry-webhooks`, {}, b);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/admin/orders/${orderId}?done=retry`);
      const now = (await attempts())?.deliveries.length ?? 0;
      expect(now).toBeGreaterThan(before);
      before = now;
    }
    const created = await attempts();
    expect(created?.delivered_at).not.toBeNull();
    expect(created?.deliveries.map((d) => d.status)).toEqual([503, 503, 503, 200]);
    const listed = (await (await bearer(`/admin/orders?q=${orderId}`)).json()) as {
      orders: Array<{ webhook_failures: number }>;
    };
    expect(listed.orders[0]?.webhook_failures).toBe(3);
  });

  it("the index rebuild starts from the list page's confirmed form and from the JSON API", async () => {
    const b = await browser();
    const { html } = await openPage("/admin/orders", b);
    const unconfirmed = await postForm(html, "/admin/orders/index/rebuild", {}, b);
    expect(unconfirmed.status).toBe(400);
    const started = await postForm(html, "/admin/orders/index/rebuild", { confirm: "yes" }, b);
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toBe("/admin/orders?rebuild=started");
    const res = await exports.default.fetch(`${ORIGIN}/admin/orders/index/rebuild`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ running: true, pulled: 0 });
    expect((await bearer("/admin/orders/index/rebuild")).status).toBe(200);
  });
});

describe("JSON for Bearer scripts", () => {
  it("GET /admin/orders lists, GET /admin/orders/<id> reads with the merchant's facts", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const list = await bearer(`/admin/orders?q=${orderId}`);
    expect(list.status).toBe(200);
    const body = (await list.json()) as { orders: Array<{ id: string; status: string }> };
    expect(body.orders.map((o) => [o.id, o.status])).toEqual([[orderId, "processing"]]);
    const one = await bearer(`/admin/orders/${orderId}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      order: { id: orderId },
      status: "processing",
      buyer_email: "jane@example.com",
      platform: FULL_PROFILE,
    });
    expect((await bearer("/admin/orders/ord_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    const bad = await bearer("/admin/orders?limit=5000");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: "invalid_input",
      issues: [{ path: "limit", message: "an integer from 1 to 200" }],
    });
    const stranger = await exports.default.fetch(`${ORIGIN}/admin/orders`, {
      headers: { authorization: "Bearer wrong" },
    });
    expect(stranger.status).toBe(401);
  });
});
