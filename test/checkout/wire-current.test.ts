/**
 * Issue 23: the checkout tools at 2026-08-25 beside 2026-04-08, on one store. A whole
 * purchase over MCP and over REST where every answer validates against 2026-08-25
 * checkout.json composed with the negotiated extensions; the same purchase at 2026-04-08 with
 * none of 2026-08-25's fields; exactly one instrument per submission; the frozen checkout
 * while a completion is accepted; 3-D Secure as the payment_authentication Action.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { OrderObject } from "../../durable-objects/order-object";
import { testProcessor } from "../../src/payment/processor";
import { checkoutOut } from "../../src/ucp/wire/current-checkout";
import { ADDRESS, checkoutCall, type Json, pay, tool, withoutTestModeNote } from "../helpers/checkout";
import { type PostOptions, PROFILES } from "../helpers/mcp";
import { CURRENT, validateComposed } from "../helpers/official-schema-current";
import { orderObject } from "../helpers/order-home";
import { getPage, pathOf, submit } from "../helpers/pages";
import { rest } from "../rest/rest-client";

const V2 = `${PROFILES}/v2026-08-25/full.json`;
const AUTH = `${PROFILES}/v2026-08-25/payment-auth.json`;
const LEGACY = `${PROFILES}/full.json`;
const CHECKOUT = "dev.ucp.shopping.checkout";
const CHALLENGE = "dev.ucp.payment.three_ds_challenge";
/** Every call signed: a session an authenticated platform made answers only that platform. */
const SIGNED: PostOptions = { signed: true };
const PURPOSES = [
  "dev.ucp.consent.analytics",
  "dev.ucp.consent.marketing",
  "dev.ucp.consent.preferences",
  "dev.ucp.consent.sale_or_sharing",
];

afterEach(() => vi.restoreAllMocks());

/** A 2026-08-25 answer: a success checkout valid against checkout.json and every negotiated extension. */
function current(payload: Json): Json {
  expect(payload?.ucp?.version, JSON.stringify(payload)).toBe("2026-08-25");
  expect(payload.ucp.status, JSON.stringify(payload.messages)).toBe("success");
  expect(validateComposed(CURRENT.checkout, CHECKOUT, payload)).toEqual([]);
  return withoutTestModeNote(payload);
}

async function mcp(
  name: string,
  args: Record<string, unknown>,
  profile: string,
  key?: string,
  options: PostOptions = {},
): Promise<Json> {
  const reply = await tool(name, args, key, profile, options);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.error, JSON.stringify(reply.body.error)).toBeUndefined();
  return reply.body.result.structuredContent;
}

const lines = [{ item: { id: "item_123" }, quantity: 1 }];
const consentMap = {
  "dev.ucp.consent.marketing": { granted: true, source: "platform" },
  "dev.ucp.consent.analytics": { granted: false, source: "platform" },
  "dev.ucp.consent.preferences": { granted: true, source: "platform" },
  "dev.ucp.consent.sale_or_sharing": { granted: false, source: "platform" },
  // Never advertised: ignored.
  "com.example.loyalty_mail": { granted: true, source: "platform" },
};
const buyer = { email: "jane@example.com", first_name: "Jane", consent: consentMap };
const shipping = { methods: [{ type: "shipping", destinations: [{ type: "shipping_address", ...ADDRESS }] }] };

/** The option that is not preselected, chosen the 2026-08-25 way (update sends the method's line_item_ids). */
function choosingAnother(checkout: Json): Json {
  const method = checkout.fulfillment.methods[0];
  const group = method.groups[0];
  const other = group.options.find((o: Json) => o.id !== group.selected_option_id) ?? group.options[0];
  return {
    line_items: lines,
    buyer,
    fulfillment: {
      methods: [
        {
          id: method.id,
          type: "shipping",
          line_item_ids: method.line_item_ids,
          selected_destination_id: method.selected_destination_id,
          groups: [{ id: group.id, selected_option_id: other.id }],
        },
      ],
    },
  };
}

function expectCurrentShapes(checkout: Json): void {
  const method = checkout.fulfillment.methods[0];
  expect(method.destinations.map((d: Json) => d.type)).toEqual(["shipping_address"]);
  for (const option of method.groups[0].options) {
    if (option.description === undefined) continue;
    expect(option.description).toEqual({ plain: expect.any(String) });
    expect(option.description.plain).not.toContain(option.title);
  }
  expect(Object.keys(checkout.buyer.consent).sort()).toEqual(PURPOSES);
  expect(checkout.buyer.consent["dev.ucp.consent.marketing"]).toEqual({
    granted: true,
    source: "platform",
    description: expect.any(String),
  });
}

async function stored(id: string): Promise<Json> {
  const stub = env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;
  return runInDurableObject(stub, (_o: CheckoutObject, state) =>
    JSON.parse(state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one().state),
  );
}

describe("a whole 2026-08-25 purchase", { timeout: 30_000 }, () => {
  it("over MCP: every answer is a valid 2026-08-25 checkout; the model keeps 2026-04-08's booleans", async () => {
    const created = current(await mcp("create_checkout", { checkout: { line_items: lines } }, V2));
    // The complete set of consent purposes is advertised before the buyer says anything.
    expect(created.buyer.consent["dev.ucp.consent.analytics"]).toMatchObject({ granted: false, source: "business" });

    const updated = current(
      await mcp(
        "update_checkout",
        { id: created.id, checkout: { line_items: lines, buyer, fulfillment: shipping } },
        V2,
      ),
    );
    expectCurrentShapes(updated);
    expect(updated.buyer.consent["com.example.loyalty_mail"]).toBeUndefined();
    const model = await stored(created.id);
    expect(model.buyer.consent).toEqual({ marketing: true, analytics: false, preferences: true, sale_of_data: false });
    expect(model.fulfillment.methods[0].destinations[0].type, "the wire's type is not stored").toBeUndefined();

    const chosen = current(await mcp("update_checkout", { id: created.id, checkout: choosingAnother(updated) }, V2));
    expect(chosen.status).toBe("ready_for_complete");
    expect(chosen.fulfillment.methods[0].groups[0].selected_option_id).toBe(
      choosingAnother(updated).fulfillment.methods[0].groups[0].selected_option_id,
    );

    const completed = current(
      await mcp("complete_checkout", { id: created.id, checkout: pay("success_token") }, V2, crypto.randomUUID()),
    );
    expect(completed.status).toBe("completed");
    expect(completed.order.id).toMatch(/\S/);
    const read = current(await mcp("get_checkout", { id: created.id }, V2));
    expect(read.order).toEqual(completed.order);
  });

  it("over REST: the same, with 2026-08-25 bodies", async () => {
    // String bodies: the REST client checks object bodies against the 2026-04-08 binding.
    const json = (body: unknown) => JSON.stringify(body);
    const created = await rest("POST", "/checkout-sessions", { body: json({ line_items: lines }), profile: V2 });
    expect(created.status, created.text).toBe(201);
    const id = current(created.body).id;
    const updated = await rest("PUT", `/checkout-sessions/${id}`, {
      body: json({ line_items: lines, buyer, fulfillment: shipping }),
      profile: V2,
    });
    expect(updated.status, updated.text).toBe(200);
    expectCurrentShapes(current(updated.body));
    const chosen = await rest("PUT", `/checkout-sessions/${id}`, {
      body: json(choosingAnother(updated.body)),
      profile: V2,
    });
    expect(current(chosen.body).status).toBe("ready_for_complete");
    const completed = await rest("POST", `/checkout-sessions/${id}/complete`, {
      body: json(pay("success_token")),
      key: crypto.randomUUID(),
      sign: true,
      profile: V2,
    });
    expect(completed.status, completed.text).toBe(200);
    expect(current(completed.body).status).toBe("completed");
    const got = await rest("GET", `/checkout-sessions/${id}`, { profile: V2 });
    expect(current(got.body).order).toEqual(completed.body.order);
  });

  it("a destination the platform may not write (business_location) is invalid params", async () => {
    const created = current(await mcp("create_checkout", { checkout: { line_items: lines } }, V2));
    const pickup = { methods: [{ type: "shipping", destinations: [{ type: "business_location", id: "store_1" }] }] };
    const reply = await tool(
      "update_checkout",
      { id: created.id, checkout: { line_items: lines, fulfillment: pickup } },
      undefined,
      V2,
    );
    expect(reply.body.error).toMatchObject({
      code: -32602,
      data: { path: "$.checkout.fulfillment.methods[0].destinations[0].type" },
    });
  });
});

describe("the order's webhooks speak the version of the profile that asked for them", { timeout: 30_000 }, () => {
  it.each([
    ["2026-08-25", `${PROFILES}/v2026-08-25/webhooks.json`],
    ["2026-04-08", `${PROFILES}/webhooks.json`],
  ])("%s", async (version, profile) => {
    const checkout = await readyAt(profile);
    const done = await mcp(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      profile,
      crypto.randomUUID(),
    );
    expect(done.status).toBe("completed");
    const state = await runInDurableObject(await orderObject(done.order.id), (_o: OrderObject, s) =>
      JSON.parse(s.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one().state),
    );
    expect(state.webhook_url).toMatch(/^https:\/\//);
    expect(state.webhook_version).toBe(version);
  });
});

describe("idempotency at 2026-08-25", { timeout: 30_000 }, () => {
  it("fingerprints the request as sent: a body differing only in what the model ignores conflicts", async () => {
    const created = current(await mcp("create_checkout", { checkout: { line_items: lines } }, V2));
    const key = crypto.randomUUID();
    const first = { line_items: lines, buyer };
    const { "com.example.loyalty_mail": _ignored, ...advertised } = consentMap;
    const other = { line_items: lines, buyer: { ...buyer, consent: advertised } };
    current(await mcp("update_checkout", { id: created.id, checkout: first }, V2, key));
    const replay = await tool("update_checkout", { id: created.id, checkout: first }, key, V2);
    expect(replay.body.result?.structuredContent?.id).toBe(created.id);
    const conflict = await tool("update_checkout", { id: created.id, checkout: other }, key, V2);
    expect(conflict.body.error).toMatchObject({ code: -32000 });
  });
});

describe("the same purchase at 2026-04-08", { timeout: 30_000 }, () => {
  it("validates as 2026-04-08 and shows none of 2026-08-25's fields", async () => {
    const legacyBuyer = { email: "jane@example.com", consent: { marketing: true, analytics: false } };
    const created = await checkoutCall("create_checkout", { checkout: { line_items: lines } }, undefined, LEGACY);
    const updated = await checkoutCall(
      "update_checkout",
      {
        id: created.id,
        checkout: {
          line_items: lines,
          buyer: legacyBuyer,
          fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        },
      },
      undefined,
      LEGACY,
    );
    expect(updated.ucp.version).toBe("2026-04-08");
    expect(updated.buyer.consent).toEqual({ marketing: true, analytics: false });
    const method = updated.fulfillment.methods[0];
    expect(method.destinations[0].type).toBeUndefined();
    for (const option of method.groups[0].options) expect(typeof (option.description ?? "")).toBe("string");
    const completed = await checkoutCall(
      "complete_checkout",
      { id: created.id, checkout: pay("success_token") },
      crypto.randomUUID(),
      LEGACY,
    );
    expect(completed.status).toBe("completed");
    expect(completed.actions).toBeUndefined();
  });
});

/** Two instruments, the second selected: 2026-04-08's way of choosing. */
function twoInstruments(): Json {
  const one = pay("success_token").payment.instruments[0];
  return {
    payment: {
      instruments: [
        { ...one, selected: false },
        { ...one, id: "instr_2", selected: true },
      ],
    },
  };
}

async function readyAt(profile: string, options: PostOptions = {}): Promise<Json> {
  const fulfillment = { methods: [{ type: "shipping", destinations: [ADDRESS] }] };
  const checkout = { line_items: lines, buyer: { email: "jane@example.com" }, fulfillment };
  const reply = await mcp("create_checkout", { checkout }, profile, undefined, options);
  expect(reply.status, JSON.stringify(reply.messages)).toBe("ready_for_complete");
  return reply;
}

describe("one payment instrument per submission (2026-08-25 overview §Payment Handlers)", { timeout: 30_000 }, () => {
  it("2026-08-25: two instruments are a payment_failed error on the unchanged checkout; nothing is charged", async () => {
    const checkout = await readyAt(V2);
    const charge = vi.spyOn(testProcessor, "charge");
    const refused = current(
      await mcp("complete_checkout", { id: checkout.id, checkout: twoInstruments() }, V2, crypto.randomUUID()),
    );
    expect(refused.status).toBe("ready_for_complete");
    expect(refused.order).toBeUndefined();
    expect(refused.messages).toContainEqual(
      expect.objectContaining({
        type: "error",
        code: "payment_failed",
        severity: "recoverable",
        path: "$.payment.instruments",
      }),
    );
    expect(charge).not.toHaveBeenCalled();
    const one = current(
      await mcp("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, V2, crypto.randomUUID()),
    );
    expect(one.status).toBe("completed");
  });

  it("a pan credential reaches the handler as the model's card credential, which the test handler declines", async () => {
    const checkout = await readyAt(V2);
    const charge = vi.spyOn(testProcessor, "charge");
    const instrument = pay("success_token").payment.instruments[0];
    const pan = { type: "pan", number: "4242424242424242", expiry_month: 12, expiry_year: 2030, cvc: "123" };
    const declined = current(
      await mcp(
        "complete_checkout",
        { id: checkout.id, checkout: { payment: { instruments: [{ ...instrument, credential: pan }] } } },
        V2,
        crypto.randomUUID(),
      ),
    );
    expect(charge.mock.calls[0]?.[0].credential).toMatchObject({ type: "card", card_number_type: "fpan" });
    expect(declined.status).toBe("ready_for_complete");
    expect(declined.messages).toContainEqual(expect.objectContaining({ code: "payment_failed" }));
  });

  it("2026-04-08 keeps choosing the selected one of several", async () => {
    const checkout = await readyAt(LEGACY);
    const done = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: twoInstruments() },
      crypto.randomUUID(),
      LEGACY,
    );
    expect(done.status).toBe("completed");
  });
});

describe("3-D Secure", { timeout: 30_000 }, () => {
  const complete3ds = (id: string, profile: string) =>
    mcp("complete_checkout", { id, checkout: pay("requires_3ds_token") }, profile, crypto.randomUUID());

  it("with payment_authentication: a three_ds_challenge Action on complete_in_progress, the checkout frozen, then completed once", async () => {
    // Created signed: only an authenticated owner's origin may frame the surface.
    const checkout = await readyAt(AUTH, { signed: true });
    const charge = vi.spyOn(testProcessor, "charge");
    const accepted = current(await complete3ds(checkout.id, AUTH));
    expect(accepted.ucp.capabilities["dev.ucp.shopping.payment_authentication"]).toBeDefined();
    expect(accepted.status).toBe("complete_in_progress");
    expect(accepted.order).toBeUndefined();
    const [action, ...others] = accepted.actions[CHALLENGE];
    expect(others).toEqual([]);
    expect(action).toEqual({
      id: expect.stringMatching(/\S/),
      config: {
        payment_instrument_id: "instr_1",
        url: expect.stringMatching(/^https:\/\/shop\.example\.com\/checkout\/.+\/verify$/),
      },
    });

    // CK2: an update while the completion is accepted changes nothing and says so.
    const frozen = current(
      await mcp(
        "update_checkout",
        { id: checkout.id, checkout: { line_items: [{ ...lines[0], quantity: 3 }] } },
        AUTH,
        undefined,
        SIGNED,
      ),
    );
    expect(frozen.status).toBe("complete_in_progress");
    expect(frozen.line_items[0].quantity).toBe(1);
    expect(frozen.messages).toContainEqual(
      expect.objectContaining({ type: "error", code: "checkout_in_progress", severity: "recoverable" }),
    );
    expect(frozen.actions[CHALLENGE][0].id, "the same occurrence while it is outstanding").toBe(action.id);

    // The surface: framed by the owner platform, announcing the occurrence and its version.
    const path = pathOf(action.config.url);
    const browser = {};
    const page = await getPage(path, browser);
    expect(page.res.headers.get("content-security-policy")).toContain("frame-ancestors https://agent.test");
    expect(page.res.headers.get("x-frame-options")).toBeNull();
    expect(page.html).toContain(`data-id="${action.id}"`);
    expect(page.html).toContain('data-version="2026-08-25"');
    expect(page.html).toContain('data-phase="challenge"');
    expect(page.html).toContain("action.ready");
    const form = /<form\b[\s\S]*?<\/form>/.exec(page.html)?.[0] ?? "";
    expect((await submit(path, form, { outcome: "pass" }, browser)).status).toBe(303);
    const done = await getPage(path, browser);
    expect(done.html).toContain('data-phase="done"');

    // The store placed the order from its own state: the platform only reads.
    const read = current(await mcp("get_checkout", { id: checkout.id }, AUTH, undefined, SIGNED));
    expect(read.status).toBe("completed");
    expect(read.actions).toBeUndefined();
    expect(read.order.id).toMatch(/\S/);
    const kinds = await Promise.all(charge.mock.results.map(async (r) => (await (r.value as Promise<Json>)).kind));
    expect(kinds).toEqual(["requires_action", "captured"]);
  });

  it("framed, the store's cookie is withheld: the form's occurrence MAC stands in for it, a forged one does not", async () => {
    const checkout = await readyAt(AUTH, { signed: true });
    const accepted = current(await complete3ds(checkout.id, AUTH));
    const path = pathOf(accepted.actions[CHALLENGE][0].config.url);
    const form = /<form\b[\s\S]*?<\/form>/.exec((await getPage(path, {})).html)?.[0] ?? "";
    expect(form).toContain('name="_surface"');
    const forged = await submit(path, form, { outcome: "pass", _surface: "x".repeat(40) }, {});
    expect(forged.status).toBe(403);
    expect(current(await mcp("get_checkout", { id: checkout.id }, AUTH, undefined, SIGNED)).status).toBe(
      "complete_in_progress",
    );
    // A browser in another site's frame sends no SameSite=Lax cookie: the page's own proof is enough.
    expect((await submit(path, form, { outcome: "pass" }, {})).status).toBe(303);
    expect(current(await mcp("get_checkout", { id: checkout.id }, AUTH, undefined, SIGNED)).status).toBe("completed");
  });

  it("an anonymous owner's origin may not frame the surface: it names any profile URL it likes (from a review)", async () => {
    const checkout = await readyAt(AUTH);
    const accepted = current(await complete3ds(checkout.id, AUTH));
    const page = await getPage(pathOf(accepted.actions[CHALLENGE][0].config.url), {});
    expect(page.res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.html).toContain('data-origin=""');
  });

  it("a failed challenge removes the Action and leaves the checkout open with payment_failed", async () => {
    const checkout = await readyAt(AUTH);
    const accepted = current(await complete3ds(checkout.id, AUTH));
    const path = pathOf(accepted.actions[CHALLENGE][0].config.url);
    const browser = {};
    const form = /<form\b[\s\S]*?<\/form>/.exec((await getPage(path, browser)).html)?.[0] ?? "";
    expect((await submit(path, form, { outcome: "fail" }, browser)).status).toBe(303);
    const read = current(await mcp("get_checkout", { id: checkout.id }, AUTH));
    expect(read.status).toBe("ready_for_complete");
    expect(read.actions).toBeUndefined();
    expect(read.messages).toContainEqual(expect.objectContaining({ code: "payment_failed" }));
  });

  it.each([
    ["2026-08-25 without payment_authentication", V2],
    ["2026-04-08", LEGACY],
  ])("%s: requires_escalation with continue_url, as before", async (_, profile) => {
    const checkout = await readyAt(profile);
    const answer = await complete3ds(checkout.id, profile);
    if (profile === V2) expect(validateComposed(CURRENT.checkout, CHECKOUT, answer)).toEqual([]);
    const escalated = withoutTestModeNote(answer);
    expect(escalated.status).toBe("requires_escalation");
    expect(escalated.actions).toBeUndefined();
    expect(escalated.messages).toContainEqual(expect.objectContaining({ code: "requires_3ds" }));
    expect(escalated.continue_url).toMatch(/\/verify$/);
  });
});

describe("update while a completion is accepted, at 2026-04-08 too", () => {
  it("answers the unchanged checkout with a recoverable checkout_in_progress error", async () => {
    const checkout = await readyAt(LEGACY);
    const stub = env.CHECKOUT.getByName(checkout.id) as DurableObjectStub<CheckoutObject>;
    await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one();
      const marked = { ...JSON.parse(row.state), status: "complete_in_progress" };
      state.storage.sql.exec("UPDATE checkout SET state = ?", JSON.stringify(marked));
    });
    const reply = await checkoutCall(
      "update_checkout",
      { id: checkout.id, checkout: { line_items: [{ ...lines[0], quantity: 2 }] } },
      undefined,
      LEGACY,
    );
    expect(reply.status).toBe("complete_in_progress");
    expect(reply.line_items[0].quantity).toBe(1);
    expect(reply.messages).toContainEqual(
      expect.objectContaining({ code: "checkout_in_progress", severity: "recoverable" }),
    );
  });
});

describe("available instruments' constraints at 2026-08-25", () => {
  it("are Constraint Expressions over the card's brand", () => {
    const payload = {
      ucp: {
        version: "2026-08-25",
        status: "error",
        payment_handlers: {
          "com.example.pay": [
            { id: "h1", available_instruments: [{ type: "card", constraints: { brands: ["visa"] } }] },
          ],
        },
      },
      messages: [],
    };
    const out = checkoutOut(payload) as Json;
    expect(out.ucp.payment_handlers["com.example.pay"][0].available_instruments).toEqual([
      { type: "card", constraints: { properties: { brand: { enum: ["visa"] } } } },
    ]);
  });
});
