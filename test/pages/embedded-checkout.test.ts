/**
 * Issue 25 item 4, the store's side in workerd: the checkout page may be framed only by the
 * origin of a session owner that authenticated (CSP frame-ancestors; anonymous owners and
 * everyone else 'none'), and loaded with ec_version it is an Embedded Checkout: the session's
 * marker, the accepted delegations (ec_delegate ∩ config.delegate), the checkout in the
 * session's version, the page's own payment UI hidden when payment.credential is delegated.
 * Its JSON calls place the order with a host's credential only with the page's proof and
 * from the store's own origin, and only for the total the host showed the buyer.
 */
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testProcessor } from "../../src/payment/processor";
import { ADDRESS, type Json, pay, tool } from "../helpers/checkout";
import { FULL_PROFILE, type PostOptions, PROFILES } from "../helpers/mcp";
import { CURRENT, validateComposed } from "../helpers/official-schema-current";
import { decodeEntities, getPage, ORIGIN, pathOf } from "../helpers/pages";

const V2 = `${PROFILES}/v2026-08-25/full.json`;
const SIGNED: PostOptions = { signed: true };

async function ready(profile: string, options: PostOptions = {}): Promise<Json> {
  const checkout = {
    line_items: [{ item: { id: "item_123" }, quantity: 1 }],
    buyer: { email: "jane@example.com", first_name: "Jane" },
    fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
  };
  const reply = await tool("create_checkout", { checkout }, crypto.randomUUID(), profile, options);
  const payload = reply.body.result.structuredContent;
  expect(payload.status, JSON.stringify(payload.messages)).toBe("ready_for_complete");
  return payload;
}

function attr(html: string, name: string): string | undefined {
  const value = new RegExp(`<div id="ucp-ec"[^>]*\\s${name}="([^"]*)"`).exec(html)?.[1];
  return value === undefined ? undefined : decodeEntities(value);
}

function embeddedCheckoutJson(html: string): Json {
  const text = /<script type="application\/json" id="ucp-ec-checkout">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return JSON.parse(text ?? "null");
}

async function ecCall(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, "sec-fetch-site": "same-origin", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const credential = pay("success_token").payment.instruments[0];
const totalOf = (checkout: Json): number => checkout.totals.find((t: Json) => t.type === "total").amount;

afterEach(() => vi.restoreAllMocks());

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("who may frame the checkout page", { timeout: 30_000 }, () => {
  it("an authenticated owner's origin, and no other; without ec_version the page is the plain page", async () => {
    const checkout = await ready(FULL_PROFILE, SIGNED);
    const page = await getPage(pathOf(checkout.continue_url));
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("content-security-policy")).toMatch(/frame-ancestors https:\/\/agent\.test(;|$)/);
    expect(page.res.headers.get("content-security-policy")).not.toContain("frame-ancestors 'none'");
    expect(page.res.headers.get("x-frame-options")).toBeNull();
    expect(page.html).not.toContain('id="ucp-ec"');
  });

  it("an anonymous owner's page refuses every frame and is never embedded, even asked to", async () => {
    const checkout = await ready(FULL_PROFILE);
    const page = await getPage(`${pathOf(checkout.continue_url)}?ec_version=2026-04-08&ec_delegate=payment.credential`);
    expect(page.res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.res.headers.get("x-frame-options")).toBe("DENY");
    expect(page.html).not.toContain('id="ucp-ec"');
    expect(page.html).not.toContain("ec.ready");
  });
});

describe("the checkout page loaded with ec_version", { timeout: 30_000 }, () => {
  it("accepts only delegations the store allows, carries the checkout at 2026-04-08 and hides its own payment UI", async () => {
    const checkout = await ready(FULL_PROFILE, SIGNED);
    const path = pathOf(checkout.continue_url);
    const page = await getPage(
      `${path}?ec_version=2026-04-08&ec_delegate=payment.credential,window.open,com.example.other&ec_auth=x&ec_color_scheme=light`,
    );
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("content-security-policy")).toMatch(/frame-ancestors https:\/\/agent\.test(;|$)/);
    expect(attr(page.html, "data-origin")).toBe("https://agent.test");
    expect(attr(page.html, "data-version")).toBe("2026-04-08");
    expect(attr(page.html, "data-delegate")).toBe("payment.credential,window.open");
    expect(page.html).toContain("ec.ready");
    expect(page.html).toMatch(/<button type="button" class="place" id="ec-pay" disabled>Pay \$/);
    expect(page.html).toMatch(/#payment-section,#pay-button\[value="pay"\],#stripe-card\{display:none!important\}/);
    const json = embeddedCheckoutJson(page.html);
    expect(json.id).toBe(checkout.id);
    expect(json.ucp.version).toBe("2026-04-08");
    expect(json.ucp.services["dev.ucp.shopping"][0].config.delegate).toContain("payment.credential");
  });

  it("instruments_change alone is not accepted (the host would also have to supply the credential)", async () => {
    const checkout = await ready(FULL_PROFILE, SIGNED);
    const page = await getPage(
      `${pathOf(checkout.continue_url)}?ec_version=2026-04-08&ec_delegate=payment.instruments_change`,
    );
    expect(attr(page.html, "data-delegate")).toBe("");
    expect(page.html).not.toContain('id="ec-pay"');
  });

  it("2026-08-25: the checkout is written in that version, valid against its schema", async () => {
    const checkout = await ready(V2, SIGNED);
    const page = await getPage(`${pathOf(checkout.continue_url)}?ec_version=2026-08-25`);
    const json = embeddedCheckoutJson(page.html);
    expect(json.ucp.version).toBe("2026-08-25");
    expect(validateComposed(CURRENT.checkout, "dev.ucp.shopping.checkout", json)).toEqual([]);
  });

  it("an unsupported ec_version is refused by the page's ec.error, with the version it does speak", async () => {
    const checkout = await ready(FULL_PROFILE, SIGNED);
    const page = await getPage(`${pathOf(checkout.continue_url)}?ec_version=2025-01-01`);
    expect(attr(page.html, "data-version")).toBe("");
    expect(attr(page.html, "data-requested-version")).toBe("2025-01-01");
    expect(page.html).toContain("ec.error");
  });
});

describe("the embedded page's own calls", { timeout: 30_000 }, () => {
  it("complete: the host's credential places the order; the answer is the completed checkout in the session's version", async () => {
    const checkout = await ready(V2, SIGNED);
    const path = pathOf(checkout.continue_url);
    const page = await getPage(`${path}?ec_version=2026-08-25&ec_delegate=payment.credential`);
    const proof = attr(page.html, "data-proof");
    const body = {
      op: "complete",
      proof,
      version: "2026-08-25",
      key: "ec-test-key-0000000001",
      instrument: credential,
      total: totalOf(embeddedCheckoutJson(page.html)),
    };

    expect((await ecCall(path, { ...body, proof: "x".repeat(40) })).status).toBe(403);
    expect((await ecCall(path, body, { origin: "https://evil.example" })).status).toBe(403);
    expect((await ecCall(path, body, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await ecCall(path, { ...body, key: "short" })).status).toBe(400);
    expect((await ecCall(path, { ...body, total: undefined })).status).toBe(400);
    const bad = await exports.default.fetch(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: "{not json",
    });
    expect(bad.status).toBe(400);

    const done = await ecCall(path, body);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.checkout.status).toBe("completed");
    expect(done.body.checkout.ucp.version).toBe("2026-08-25");
    expect(done.body.checkout.order.id).toMatch(/\S/);
    // A resent call replays: still one order.
    const again = await ecCall(path, body);
    expect(again.body.checkout.order.id).toBe(done.body.checkout.order.id);
    const read = (await tool("get_checkout", { id: checkout.id }, undefined, V2, SIGNED)).body.result.structuredContent;
    expect(read.status).toBe("completed");
    expect(read.order.id).toBe(done.body.checkout.order.id);
  });

  it("complete: a total other than the checkout's (it changed after the host's sheet) is refused, nothing charged", async () => {
    const checkout = await ready(V2, SIGNED);
    const path = pathOf(checkout.continue_url);
    const page = await getPage(`${path}?ec_version=2026-08-25&ec_delegate=payment.credential`);
    const shown = totalOf(embeddedCheckoutJson(page.html));
    // The buyer's quantity 1 -> 3 went in after the host was asked with the page's checkout.
    const lines = [{ item: { id: "item_123" }, quantity: 3 }];
    const three = await tool(
      "update_checkout",
      { id: checkout.id, checkout: { line_items: lines, buyer: checkout.buyer } },
      undefined,
      V2,
      SIGNED,
    );
    const now = totalOf(three.body.result.structuredContent);
    expect(now).toBeGreaterThan(shown);
    const charge = vi.spyOn(testProcessor, "charge");
    const body = {
      op: "complete",
      proof: attr(page.html, "data-proof"),
      version: "2026-08-25",
      instrument: credential,
    };

    const refused = await ecCall(path, { ...body, key: "ec-total-key-00000001", total: shown });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("total_changed");
    expect(totalOf(refused.body.checkout)).toBe(now);
    expect(refused.body.checkout.ucp.version).toBe("2026-08-25");
    expect(refused.body.message).toMatch(/^The total is now \$[\d,.]+\. Check it, then press Pay\.$/);
    expect(charge).not.toHaveBeenCalled();
    const read = (await tool("get_checkout", { id: checkout.id }, undefined, V2, SIGNED)).body.result.structuredContent;
    expect(read.status).toBe("ready_for_complete");
    expect(read.order).toBeUndefined();

    // Asked again with the new total, the host's approval places the order for it.
    const done = await ecCall(path, { ...body, key: "ec-total-key-00000002", total: now });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.checkout.status).toBe("completed");
    expect(totalOf(done.body.checkout)).toBe(now);
    expect(charge).toHaveBeenCalledTimes(1);
  });

  it("save: the fields must be [name, value] pairs", async () => {
    const checkout = await ready(FULL_PROFILE, SIGNED);
    const path = pathOf(checkout.continue_url);
    const page = await getPage(`${path}?ec_version=2026-04-08&ec_delegate=payment.credential`);
    const body = {
      op: "save",
      proof: attr(page.html, "data-proof"),
      version: "2026-04-08",
      key: "ec-save-key-000000001",
    };
    expect((await ecCall(path, { ...body, fields: "qty=3" })).status).toBe(400);
    expect((await ecCall(path, { ...body, fields: [["qty", 3]] })).status).toBe(400);
  });

  it("address: the host's chosen destination becomes the checkout's shipping address", async () => {
    const checkout = await ready(FULL_PROFILE, SIGNED);
    const path = pathOf(checkout.continue_url);
    const page = await getPage(`${path}?ec_version=2026-04-08&ec_delegate=fulfillment.address_change`);
    expect(page.html).toContain('id="ec-address"');
    expect(page.html).toContain("#address-section{display:none!important}");
    const methods = [
      {
        id: "m1",
        type: "shipping",
        selected_destination_id: "addr_new",
        destinations: [
          { id: "addr_old", street_address: "1 Old Rd", address_locality: "Austin", address_country: "US" },
          {
            id: "addr_new",
            street_address: "500 New St",
            address_locality: "Portland",
            address_region: "OR",
            postal_code: "97201",
            address_country: "US",
          },
        ],
      },
    ];
    const proof = attr(page.html, "data-proof");
    const done = await ecCall(path, {
      op: "address",
      proof,
      version: "2026-04-08",
      key: "ec-addr-key-000000001",
      methods,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const destination = done.body.checkout.fulfillment.methods[0].destinations[0];
    expect(destination).toMatchObject({ street_address: "500 New St", address_locality: "Portland" });
    const none = await ecCall(path, {
      op: "address",
      proof,
      version: "2026-04-08",
      key: "ec-addr-key-000000002",
      methods: [],
    });
    expect(none.status).toBe(400);
  });
});
