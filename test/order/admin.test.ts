import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminAccess } from "../../src/admin/auth";
import { handleAdmin } from "../../src/admin/router";
import { derivedId } from "../../src/lib/ids";
import type { Json } from "../helpers/checkout";
import { ADMIN_TOKEN, admin, expectOrder, getOrder, placeOrder } from "./order-helpers";

const TRACKING = { tracking_number: "1Z999", tracking_url: "https://track.example/1Z999", carrier: "UPS" };

describe("fulfillment events", () => {
  it("shipped with tracking, then delivered: events, fulfilled counts and line status", async () => {
    const { orderId } = await placeOrder([
      { id: "item_123", quantity: 2 },
      { id: "item_456", quantity: 1 },
    ]);
    const shipped = await admin(orderId, "events", { type: "shipped", ...TRACKING, description: "Left the warehouse" });
    expect(shipped.status).toBe(200);
    expectOrder(shipped.body);
    const order = await getOrder(orderId);
    // the admin reply is the same order (its envelope is not negotiated, so ucp may differ)
    expect({ ...order, ucp: null }).toEqual({ ...shipped.body, ucp: null });
    const lines = order.line_items;
    expect(order.fulfillment.events).toEqual([
      {
        id: "evt_1",
        occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        type: "shipped",
        line_items: [
          { id: lines[0].id, quantity: 2 },
          { id: lines[1].id, quantity: 1 },
        ],
        ...TRACKING,
        description: "Left the warehouse",
      },
    ]);
    expect(lines.map((l: Json) => [l.quantity, l.status])).toEqual([
      [{ original: 2, total: 2, fulfilled: 2 }, "fulfilled"],
      [{ original: 1, total: 1, fulfilled: 1 }, "fulfilled"],
    ]);
    const delivered = await admin(orderId, "events", { type: "delivered", description: "Front door" });
    expect(delivered.status).toBe(200);
    const after = await getOrder(orderId);
    expect(after.fulfillment.events.map((e: Json) => [e.id, e.type])).toEqual([
      ["evt_1", "shipped"],
      ["evt_2", "delivered"],
    ]);
    expect(after.fulfillment.events[1].line_items).toEqual(order.fulfillment.events[0].line_items);
    // delivering what shipped counts nothing twice
    expect(after.line_items.map((l: Json) => l.quantity.fulfilled)).toEqual([2, 1]);
    expect(JSON.stringify(after)).not.toContain("jane@example.com");
  });

  it("partial shipments: named units, partial status, never above the total", async () => {
    const { orderId } = await placeOrder([{ id: "item_456", quantity: 3 }]);
    const lineId = (await getOrder(orderId)).line_items[0].id;
    const one = await admin(orderId, "events", { type: "shipped", line_items: [{ id: lineId, quantity: 1 }] });
    expect(one.body.line_items[0]).toMatchObject({ quantity: { total: 3, fulfilled: 1 }, status: "partial" });
    const over = await admin(orderId, "events", { type: "shipped", line_items: [{ id: lineId, quantity: 3 }] });
    expect(over.status).toBe(400);
    expect(over.body.issues).toEqual([{ path: "$.line_items[0].quantity", message: expect.stringContaining("2") }]);
    const rest = await admin(orderId, "events", { type: "shipped", ...TRACKING });
    expect(rest.body.fulfillment.events[1].line_items).toEqual([{ id: lineId, quantity: 2 }]);
    expect(rest.body.line_items[0].status).toBe("fulfilled");
    const none = await admin(orderId, "events", { type: "shipped" });
    expect(none.status).toBe(400);
    expect(none.body.issues[0].path).toBe("$.line_items");
    const transit = await admin(orderId, "events", { type: "in_transit", ...TRACKING });
    expect(transit.body.line_items[0].quantity.fulfilled).toBe(3);
    expectOrder(await getOrder(orderId));
  });
});

describe("access and input", () => {
  it("401 without a token, with a wrong one, or another scheme", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    for (const token of [null, "wrong-token", `${ADMIN_TOKEN}x`, ""]) {
      const reply = await admin(orderId, "events", { type: "shipped" }, { token });
      expect(reply.status).toBe(401);
      expect(reply.body.error).toBe("unauthorized");
    }
    const basic = await exports.default.fetch(`https://shop.example.com/admin/orders/${orderId}/events`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}` },
      body: "{}",
    });
    expect(basic.status).toBe(401);
    expect((await getOrder(orderId)).fulfillment.events).toEqual([]);
  });

  it("404 for unknown orders and routes; the whole surface is 404 without the secret", async () => {
    expect((await admin("ord_nope", "events", { type: "shipped" })).status).toBe(404);
    const signedButAbsent = await derivedId(
      "ord",
      "test-signing-key",
      "https://agent.test/profiles/full.json",
      crypto.randomUUID(),
    );
    const absent = await admin(signedButAbsent, "adjustments", { type: "refund", amount: 1 });
    expect(absent).toEqual({ status: 404, body: { error: "not_found", message: "Order not found." } });
    expect((await admin(signedButAbsent, "nope" as "events", {})).status).toBe(404);
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const request = () =>
      new Request(`https://shop.example.com/admin/orders/${orderId}/events`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ type: "shipped" }),
      });
    // An unset secret (undefined) and an empty one both turn the surface off.
    expect(await adminAccess(request(), undefined)).toBe("disabled");
    const disabled = await handleAdmin(request(), { ...env, ADMIN_TOKEN: "" });
    expect(disabled.status).toBe(404);
    expect(((await disabled.json()) as Json).error).toBe("not_found");
    expect(await adminAccess(request(), ADMIN_TOKEN)).toBe("granted");
  });

  it("400 with issues for bad bodies", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const cases: Array<["events" | "adjustments", unknown, string]> = [
      ["events", "{not json", "$"],
      ["events", {}, "$.type"],
      ["events", { type: "Shipped!" }, "$.type"],
      ["events", { type: "shipped", traking_url: "x" }, "$"],
      ["events", { type: "shipped", tracking_url: "javascript:alert(1)" }, "$.tracking_url"],
      ["events", { type: "shipped", line_items: [{ id: "li_x", quantity: 1 }] }, "$.line_items[0].id"],
      ["events", { type: "shipped", line_items: [{ id: "li_1", quantity: 0 }] }, "$.line_items[0].quantity"],
      ["events", { type: "shipped", line_items: [] }, "$.line_items"],
      ["adjustments", { type: "refund", amount: -5 }, "$.amount"],
      ["adjustments", { type: "refund", amount: 1.5 }, "$.amount"],
      ["adjustments", { type: "return", line_items: [{ id: "li_1", quantity: 0 }] }, "$.line_items[0].quantity"],
      ["adjustments", [], "$"],
    ];
    for (const [op, body, path] of cases) {
      const reply = await admin(orderId, op, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toMatch(/^invalid_(input|json)$/);
      expect(
        reply.body.issues.map((i: Json) => i.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const badKey = await admin(orderId, "events", { type: "shipped" }, { key: "has space" });
    expect(badKey.status).toBe(400);
    expect(await getOrder(orderId)).toMatchObject({ fulfillment: { events: [] }, adjustments: [] });
  });
});
