/**
 * Operations (docs/operations.md): every request leaves exactly one JSON log line (request
 * id, rpc method, tool, profile, tier, outcome, status, duration), and every order event one
 * line more (created, fulfillment, adjustment, webhook delivered / failed), read here from
 * console.log as Workers Logs would receive it.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { callTool, FULL_PROFILE, PROFILES, post } from "../helpers/mcp";
import { admin, orderObject, orderStub } from "../order/order-helpers";

// biome-ignore lint/suspicious/noExplicitAny: -- log lines are inspected structurally
type Line = Record<string, any>;

let log: MockInstance<typeof console.log>;

beforeEach(() => {
  log = vi.spyOn(console, "log");
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The structured lines logged so far (other console.log output is ignored). */
function lines(kind: "request" | "order"): Line[] {
  const out: Line[] = [];
  for (const call of log.mock.calls) {
    if (call.length !== 1 || typeof call[0] !== "string" || !call[0].startsWith("{")) continue;
    const line = JSON.parse(call[0]) as Line;
    if (line.log === kind) out.push(line);
  }
  return out;
}

describe("one log line per request", () => {
  it("names the tool, profile, tier and outcome of a tools/call", async () => {
    const reply = await callTool("search_catalog", { catalog: { query: "jacket" } });
    expect(reply.status).toBe(200);
    const [line, ...more] = lines("request");
    expect(more).toEqual([]);
    expect(line).toEqual({
      log: "request",
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: "POST",
      path: "/ucp/mcp",
      rpc: "tools/call",
      tool: "search_catalog",
      profile: FULL_PROFILE,
      tier: "anonymous",
      outcome: "ok",
      status: 200,
      duration_ms: expect.any(Number),
    });
  });

  it("takes cf-ray as the request id and logs a refusal by its UCP code", async () => {
    const reply = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "complete_checkout",
          arguments: { meta: { "ucp-agent": { profile: FULL_PROFILE }, "idempotency-key": "k-1" }, id: "chk_x" },
        },
      },
      { "cf-ray": "8f00aa11bb22cc33-AMS" },
      { anonymous: true },
    );
    expect(reply.status).toBe(401);
    expect(lines("request")).toEqual([
      expect.objectContaining({
        request_id: "8f00aa11bb22cc33-AMS",
        tool: "complete_checkout",
        tier: "anonymous",
        outcome: "authentication_required",
        status: 401,
      }),
    ]);
  });

  it("logs a UCP error response by its message code, and requests outside MCP by status", async () => {
    const unknown = await tool("get_checkout", { id: "chk_does_not_exist" });
    const payload = unknown.body.result.structuredContent;
    expect(payload.ucp.status, JSON.stringify(unknown.body)).toBe("error");
    expect(lines("request")).toEqual([
      expect.objectContaining({ tool: "get_checkout", outcome: payload.messages[0].code, status: 200 }),
    ]);
    log.mockClear();
    const missing = await exports.default.fetch("https://shop.example.com/nowhere");
    expect(missing.status).toBe(404);
    expect(lines("request")).toEqual([
      expect.objectContaining({ method: "GET", path: "/nowhere", outcome: "http_404", status: 404 }),
    ]);
  });

  it("logs a 413 before any parsing", async () => {
    const res = await exports.default.fetch("https://shop.example.com/ucp/mcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(lines("request")).toEqual([expect.objectContaining({ outcome: "-32600", status: 413 })]);
  });
});

describe("no credentials in logs", () => {
  it("logs a buyer page's path without its hand-off token", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const url = new URL(checkout.continue_url);
    const token = url.pathname.split("/")[2] as string;
    for (const path of [url.pathname, `${url.pathname}/verify`, `/continue/${token}`, `/orders/${token}`]) {
      await exports.default.fetch(`https://shop.example.com${path}`, { redirect: "manual" });
    }
    const logged = lines("request").map((l) => l.path);
    expect(logged).toEqual(
      expect.arrayContaining(["/checkout/<token>", "/checkout/<token>/verify", "/continue/<token>", "/orders/<token>"]),
    );
    const all = log.mock.calls.flat().map(String).join("\n");
    expect(all).not.toContain(token);
  });
});

describe("one log line per order event", () => {
  it("created, fulfillment, adjustment, webhook delivered and failed", async () => {
    // Sessions belong to their platform: the checkout is made under the profile that completes it.
    const checkout = await readyCheckout([{ id: "item_456", quantity: 2 }], {}, `${PROFILES}/webhooks-flaky.json`);
    const done = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
      `${PROFILES}/webhooks-flaky.json`,
    );
    const orderId: string = done.body.result.structuredContent.order.id;
    expect(lines("order")).toEqual([
      { log: "order", order_id: orderId, event: "created", profile: `${PROFILES}/webhooks-flaky.json` },
    ]);

    expect((await admin(orderId, "events", { type: "shipped", tracking_number: "1Z" })).status).toBe(200);
    const refund = { type: "refund", amount: 100 };
    expect((await admin(orderId, "adjustments", refund)).status).toBe(200);
    // A replayed admin call (same idempotency key) is not a second event.
    const again = { type: "delivered" };
    await admin(orderId, "events", again, { key: "evt-1" });
    await admin(orderId, "events", again, { key: "evt-1" });
    const changes = lines("order").filter((l) => l.event === "fulfillment" || l.event === "adjustment");
    expect(changes).toEqual([
      { log: "order", order_id: orderId, event: "fulfillment", type: "shipped" },
      { log: "order", order_id: orderId, event: "adjustment", type: "refund" },
      { log: "order", order_id: orderId, event: "fulfillment", type: "delivered" },
    ]);

    // The flaky receiver answers 503 three times, then takes the order.
    const _stub = orderStub(orderId);
    const object = await orderObject(orderId);
    for (let round = 0; round < 8; round++) {
      await runInDurableObject(object, (_o: unknown, state: DurableObjectState) => {
        state.storage.sql.exec("UPDATE webhooks SET next_attempt_at = 0 WHERE next_attempt_at IS NOT NULL");
      });
      await runDurableObjectAlarm(object);
    }
    const hooks = lines("order").filter((l) => l.event.startsWith("webhook_"));
    expect(hooks.slice(0, 4)).toEqual([
      expect.objectContaining({ event: "webhook_failed", webhook_event: "order.created", attempt: 1, status: 503 }),
      expect.objectContaining({ event: "webhook_failed", attempt: 2, status: 503 }),
      expect.objectContaining({ event: "webhook_failed", attempt: 3, status: 503 }),
      expect.objectContaining({ event: "webhook_delivered", webhook_event: "order.created", attempt: 4, status: 200 }),
    ]);
    expect(hooks.every((l) => l.order_id === orderId && typeof l.webhook_id === "string")).toBe(true);
  });
});
