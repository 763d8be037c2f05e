/**
 * The 3-D Secure challenge page (/checkout/<token>/verify) and the escalation it resolves (UCP
 * overview Scenario B): an agent's complete_checkout with requires_3ds_token escalates with the
 * challenge as continue_url; the buyer fails (nothing charged, the checkout stays open) or
 * passes (ready_for_complete) and the agent's retry places one order. A payment the buyer
 * started on the store's own page is completed there after the challenge, and its order
 * belongs to the platform that owns the checkout.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import type { OrderObject } from "../../durable-objects/order-object";
import { stockShardName } from "../../src/catalog/stock-keys";
import { callAsBuyer } from "../../src/pages/buyer-tools";
import { pageContext } from "../../src/pages/context";
import type { ChargeRequest } from "../../src/payment/processor";
import { testProcessor } from "../../src/payment/processor";
import { type Json, pay, readyCheckout, tool, withoutTestModeNote } from "../helpers/checkout";
import { FULL_PROFILE, PROFILES } from "../helpers/mcp";
import { orderObject } from "../helpers/order-home";
import { type Browser, getPage, ORIGIN, pathOf, submit } from "../helpers/pages";

afterEach(() => vi.restoreAllMocks());

/** A tool call's payload as the agent sees it (signed where the tool needs it). */
async function agent(name: string, args: Record<string, unknown>, key?: string, profile = FULL_PROFILE): Promise<Json> {
  const reply = await tool(name, args, key, profile);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const payload = reply.body.result.structuredContent;
  return payload.ucp.status === "success" && "status" in payload ? withoutTestModeNote(payload) : payload;
}

/** The charges the test processor was asked for, with what each answered. */
function chargeSpy() {
  return vi.spyOn(testProcessor, "charge");
}
async function outcomes(spy: ReturnType<typeof chargeSpy>): Promise<string[]> {
  return Promise.all(spy.mock.results.map(async (r) => (await (r.value as Promise<{ kind: string }>)).kind));
}
const requests = (spy: ReturnType<typeof chargeSpy>) => spy.mock.calls.map(([request]) => request as ChargeRequest);

/** An agent's checkout escalated by its requires_3ds_token payment. */
async function escalated(profile = FULL_PROFILE) {
  const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }], {}, profile);
  const answer = await agent(
    "complete_checkout",
    { id: checkout.id, checkout: pay("requires_3ds_token") },
    crypto.randomUUID(),
    profile,
  );
  return { checkout, answer, verifyPath: pathOf(answer.continue_url) };
}

const firstForm = (html: string) => /<form\b[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";

async function answerChallenge(verifyPath: string, outcome: "pass" | "fail", browser: Browser = {}) {
  const page = await getPage(verifyPath, browser);
  expect(page.res.status, page.html).toBe(200);
  const form = firstForm(page.html);
  const res = await submit(verifyPath, form, { outcome }, browser);
  return { res, form };
}

describe("an agent's payment that needs 3-D Secure", () => {
  it("escalates with the challenge as continue_url; the page shows the amount and the store, like a bank's step", async () => {
    const charge = chargeSpy();
    const { checkout, answer, verifyPath } = await escalated();
    expect(answer.status).toBe("requires_escalation");
    expect(answer.messages).toEqual([
      expect.objectContaining({ type: "error", code: "requires_3ds", severity: "requires_buyer_input" }),
    ]);
    expect(answer.continue_url).toMatch(/^https:\/\/shop\.example\.com\/checkout\/[A-Za-z0-9_-]+\/verify$/);
    expect(answer.order).toBeUndefined();
    expect(await outcomes(charge)).toEqual(["requires_action"]);

    const page = await getPage(verifyPath);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("cache-control")).toBe("no-store");
    expect(page.html).toContain("<h1>Verify your payment</h1>");
    const total = checkout.totals.find((t: Json) => t.type === "total").amount;
    expect(page.html).toContain(
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(total / 100),
    );
    expect(page.html).toMatch(/<th scope="row">Merchant<\/th><td>[^<]+<\/td>/);
    expect(page.html).toContain(">Verify</button>");
    expect(page.html).toContain(">Fail verification</button>");
    expect(page.html).toContain("ending in 4242");
    expect(page.html).toContain('name="_csrf"');
  });

  it("a tampered token shows nothing of the session", async () => {
    const { verifyPath } = await escalated();
    const token = verifyPath.split("/")[2] as string;
    const flipped = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    const path = `/checkout/${flipped}/verify`;
    const shown = await getPage(path);
    const posted = await submit(path, "", { outcome: "pass", key: crypto.randomUUID() }, {});
    for (const [res, html] of [
      [shown.res, shown.html],
      [posted, await posted.text()],
    ] as const) {
      expect(res.status).toBe(404);
      expect(html).toContain("This link is not valid");
      expect(html).not.toContain("Verify your payment");
      expect(html).not.toContain("4242");
    }
  });

  it("a POST without the CSRF token is refused and changes nothing", async () => {
    const { checkout, verifyPath } = await escalated();
    const browser: Browser = {};
    const page = await getPage(verifyPath, browser);
    const res = await submit(verifyPath, firstForm(page.html), { outcome: "pass", _csrf: "" }, browser);
    expect(res.status).toBe(403);
    expect((await agent("get_checkout", { id: checkout.id })).status).toBe("requires_escalation");
  });

  it("failed: a clear message, not completed, nothing charged; the buyer or agent may pay another way", async () => {
    const { checkout, verifyPath } = await escalated();
    const charge = chargeSpy();
    const browser: Browser = {};
    const { res } = await answerChallenge(verifyPath, "fail", browser);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(verifyPath);

    const after = await getPage(verifyPath, browser);
    expect(after.html).toContain("Payment not verified");
    expect(after.html).toContain("Nothing was charged");
    expect(after.html).toContain("Return to agent.test to pay another way.");
    expect(after.html).not.toContain(">Verify</button>");

    const seen = await agent("get_checkout", { id: checkout.id });
    expect(seen.status).toBe("ready_for_complete");
    expect(seen.order).toBeUndefined();
    expect(seen.messages).toEqual([
      expect.objectContaining({ code: "payment_failed", severity: "recoverable", path: "$.payment.instruments[0]" }),
    ]);
    expect(seen.continue_url).not.toMatch(/\/verify$/);
    expect(charge).not.toHaveBeenCalled();
    // The agent's retry with the same 3-D Secure card asks the buyer again; nothing is captured.
    const again = await agent(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
    );
    expect(again.status).toBe("requires_escalation");
    expect(await outcomes(charge)).toEqual(["requires_action"]);
  });

  it("passed: get_checkout is ready_for_complete, the buyer returns to the agent, whose retry places one order", async () => {
    const { checkout, verifyPath } = await escalated();
    const before = await agent(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
    );
    expect(before.status, "a retry before the buyer verified places nothing").toBe("requires_escalation");

    const browser: Browser = {};
    const { res, form } = await answerChallenge(verifyPath, "pass", browser);
    expect(res.status).toBe(303);
    const after = await getPage(verifyPath, browser);
    expect(after.html).toContain("Verified — return to agent.test");

    const ready = await agent("get_checkout", { id: checkout.id });
    expect(ready.status).toBe("ready_for_complete");
    expect(ready.messages).toEqual([expect.objectContaining({ type: "info", code: "payment_verified" })]);

    // The same form sent again (a double click, a reload) replays: no second answer.
    const replay = await submit(verifyPath, form, { outcome: "pass" }, browser);
    expect(replay.status).toBe(303);
    const conflict = await submit(verifyPath, form, { outcome: "fail" }, browser);
    expect(conflict.status).toBe(409);
    expect((await agent("get_checkout", { id: checkout.id })).status).toBe("ready_for_complete");

    const charge = chargeSpy();
    const done = await agent(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
    );
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(done.order.id).toMatch(/^ord_/);
    expect(await outcomes(charge)).toEqual(["captured"]);
    expect(requests(charge)[0]?.authentication).toMatchObject({ status: "passed", id: expect.stringMatching(/^3ds_/) });
    const held = await reservationStates(checkout.id);
    expect(held.filter((s) => s === "held")).toHaveLength(1);
    // A later retry under another key finds the order placed: no second charge, no second order.
    const later = await agent(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
    );
    expect(later.status).toBe("completed");
    expect(later.order.id).toBe(done.order.id);
    expect(charge).toHaveBeenCalledTimes(1);
    const order = await agent("get_order", { id: done.order.id });
    expect(order.id).toBe(done.order.id);
    // The challenge page now says the order is placed.
    expect((await getPage(verifyPath, browser)).html).toContain("Order placed");
  });
  it("a verification is for the amount the buyer saw: after the checkout changed, the retry asks again", async () => {
    const { checkout, verifyPath } = await escalated();
    await answerChallenge(verifyPath, "pass");
    const changed = await agent("update_checkout", {
      id: checkout.id,
      checkout: { line_items: [{ item: { id: "item_123" }, quantity: 2 }], buyer: checkout.buyer },
    });
    expect(changed.status).toBe("ready_for_complete");
    const charge = chargeSpy();
    const retry = await agent(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
    );
    expect(retry.status).toBe("requires_escalation");
    expect(requests(charge)[0]?.authentication).toBeUndefined();
    expect(await outcomes(charge)).toEqual(["requires_action"]);
    expect((await getPage(verifyPath)).html).toContain("<h1>Verify your payment</h1>");
  });
});

describe("a payment the buyer started on the store's checkout page", () => {
  it("after the challenge the page places the order; it belongs to the owning platform, whose get_order and webhook work", async () => {
    const profile = `${PROFILES}/webhooks.json`;
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }], {}, profile);
    const continueUrl = checkout.continue_url as string;
    // What the checkout page does with the 4000 0027 6000 3184 test card (src/pages/checkout-actions.ts).
    const ctx = await pageContext(new Request(continueUrl, { method: "POST" }), env);
    const paid = await callAsBuyer(
      ctx,
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      {
        handoff: true,
        idempotencyKey: crypto.randomUUID(),
      },
    );
    expect(paid.ok && paid.value.status).toBe("requires_escalation");
    const verifyPath = `${pathOf(continueUrl)}/verify`;
    expect(paid.ok && paid.value.continue_url).toBe(`${ORIGIN}${verifyPath}`);

    const charge = chargeSpy();
    const browser: Browser = {};
    const { res } = await answerChallenge(verifyPath, "pass", browser);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(verifyPath);
    const confirmation = await getPage(verifyPath, browser);
    expect(confirmation.html).toContain("Order placed");
    expect(await outcomes(charge)).toEqual(["captured"]);

    const seen = await agent("get_checkout", { id: checkout.id }, undefined, profile);
    expect(seen.status).toBe("completed");
    expect(confirmation.html).toContain(seen.order.id);
    expect(confirmation.html).toContain(`href="${seen.order.permalink_url}"`);
    const order = await agent("get_order", { id: seen.order.id }, undefined, profile);
    expect(order.id).toBe(seen.order.id);
    await expectWebhook(seen.order.id);
  });

  it("an order placed on the page without 3-D Secure also belongs to the owning platform", async () => {
    const profile = `${PROFILES}/webhooks.json`;
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }], {}, profile);
    const ctx = await pageContext(new Request(checkout.continue_url, { method: "POST" }), env);
    const paid = await callAsBuyer(
      ctx,
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      {
        handoff: true,
        idempotencyKey: crypto.randomUUID(),
      },
    );
    expect(paid.ok && paid.value.status).toBe("completed");
    const orderId = (paid.ok ? (paid.value.order as Json).id : "") as string;
    const order = await agent("get_order", { id: orderId }, undefined, profile);
    expect(order.id, JSON.stringify(order)).toBe(orderId);
    const other = await agent("get_order", { id: orderId });
    expect(other.messages[0].code).toBe("unauthorized");
    await expectWebhook(orderId);
  });
});

/** The owning platform's webhook receiver (test/fixtures/profile-server.ts) got the order. */
async function expectWebhook(orderId: string) {
  const stub = await orderObject(orderId);
  for (let round = 0; round < 10; round++) {
    const res = await fetch(`https://fixtures.test/webhooks?order=${orderId}`);
    const { deliveries } = (await res.json()) as { deliveries: Array<{ body: string; path: string }> };
    if (deliveries.length > 0) {
      expect(JSON.parse(deliveries[0]?.body ?? "{}").id).toBe(orderId);
      return;
    }
    await runInDurableObject(stub, (_o: OrderObject, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE webhooks SET next_attempt_at = 0 WHERE next_attempt_at IS NOT NULL");
    });
    await runDurableObjectAlarm(stub);
  }
  expect.fail("the owner's webhook URL was never called");
}

async function reservationStates(checkoutId: string): Promise<string[]> {
  // The stock object of item_123, the variant this checkout buys (issue 14: one per variant).
  const inventory = env.INVENTORY.getByName(stockShardName("item_123")) as DurableObjectStub<InventoryObject>;
  return runInDurableObject(inventory, (_i: InventoryObject, state) =>
    state.storage.sql
      .exec<{ state: string }>("SELECT state FROM reservations WHERE id LIKE ?", `${checkoutId}:%`)
      .toArray()
      .map((r) => r.state),
  );
}
