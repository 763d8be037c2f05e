/**
 * The checkout page at continue_url: one form holds every field and one button (Continue,
 * then Pay) sends it; what the page shows is what get_checkout returns, every submit changes
 * the same checkout an agent reads (one state machine, no second path), and no submit loses
 * what the buyer typed.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { formatMoney } from "../../src/pages/money";
import { ADDRESS, checkoutCall, type Json, readyCheckout, tool } from "../helpers/checkout";
import { shownFields } from "../helpers/checkout-form";
import { PROFILES } from "../helpers/mcp";
import { type Browser, decodeEntities, getPage, pathOf, submit } from "../helpers/pages";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;
const CHECKOUT_ONLY = `${PROFILES}/checkout-only.json`;
const usd = (minor: number) => formatMoney(minor, "USD", "en-US");

const agentRead = (id: string, profile?: string) => checkoutCall("get_checkout", { id }, undefined, profile);

/** A checkout as an agent starts it: items and the buyer's email, no address. */
async function startedCheckout(extra: Record<string, unknown> = {}, profile?: string): Promise<Json> {
  return checkoutCall(
    "create_checkout",
    {
      checkout: {
        line_items: [
          { item: { id: "item_123" }, quantity: 2 },
          { item: { id: "item_456" }, quantity: 1 },
        ],
        buyer: { email: "jane@example.com" },
        ...extra,
      },
    },
    undefined,
    profile,
  );
}

interface Session {
  browser: Browser;
  path: string;
  html: string;
}

/** Opens the page in a fresh browser and returns it with the page's HTML. */
async function open(checkout: Json): Promise<Session> {
  const browser: Browser = { ip: IP };
  const path = pathOf(checkout.continue_url);
  const page = await getPage(path, browser);
  expect(page.res.status).toBe(200);
  return { browser, path, html: page.html };
}

/** The page's one form. */
function theForm(html: string): string {
  const forms = html.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
  expect(forms).toHaveLength(1);
  return forms[0] as string;
}

/** The value an input shows in `html`. */
function fieldValue(html: string, id: string): string | undefined {
  const input = new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0];
  const value = input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
  return value === undefined ? undefined : decodeEntities(value);
}

/** Presses the button `action` (continue, pay, apply, or "" for a remove button) with the form as shown plus `typed`. */
async function press(session: Session, action: string, typed: Record<string, string> = {}) {
  const form = theForm(session.html);
  const fields = { ...shownFields(form), ...typed, ...(action ? { action } : {}) };
  const res = await submit(session.path, form, fields, session.browser);
  const location = res.headers.get("location") ?? "";
  let html = await res.text();
  if (res.status === 303 && location.startsWith(session.path)) html = (await getPage(location, session.browser)).html;
  if (html.includes('id="checkout-form"') || res.status === 303) session.html = html;
  return { res, status: res.status, location, html };
}

/** The totals rows as the page shows them: [type, label, amount]. */
function pageTotals(html: string): string[][] {
  const rows = [
    ...html.matchAll(/<tr[^>]*data-total="([^"]+)"><th scope="row">([^<]*)<\/th><td class="num">([^<]*)<\/td>/g),
  ];
  return rows.map((r) => [r[1] as string, decodeEntities(r[2] as string), decodeEntities(r[3] as string)]);
}

/** The error summary's links: [text, href]. */
function summaryLinks(html: string): string[][] {
  const box = /<div class="notice error error-summary"[\s\S]*?<\/div>/.exec(html)?.[0] ?? "";
  return [...box.matchAll(/<a href="#([^"]+)">([^<]*)<\/a>/g)].map((m) => [
    decodeEntities(m[2] as string),
    m[1] as string,
  ]);
}

/** The primary button's label. */
function primaryLabel(html: string): string {
  return decodeEntities(
    /<button type="submit" name="action" value="[a-z]+" id="pay-button"[^>]*>([^<]*)<\/button>/.exec(html)?.[1] ?? "",
  );
}

const CARD = { card_expiry: "12/40", card_cvc: "123", card_name: "Jane Doe" };
const TYPED_ADDRESS = {
  "address-first_name": "Jane",
  "address-last_name": "Doe",
  "address-street_address": ADDRESS.street_address,
  "address-address_locality": ADDRESS.address_locality,
  "address-address_region": ADDRESS.address_region,
  "address-postal_code": ADDRESS.postal_code,
  "address-address_country": ADDRESS.address_country,
};

describe("the checkout page shows the checkout as the API computes it, in one form", () => {
  it("lists every line, every totals entry, and every field in one form with one Pay button", async () => {
    const checkout = await readyCheckout(
      [
        { id: "item_123", quantity: 2 },
        { id: "item_456", quantity: 1 },
      ],
      { discounts: { codes: ["SAVE10"] } },
    );
    const { html, browser } = await open(checkout);
    expect(browser.cookie).toMatch(/^ucp_csrf=/);
    expect(html).not.toContain(checkout.id);
    for (const line of checkout.line_items) {
      expect(html).toContain(line.item.title);
      expect(html).toContain(`src="${line.item.image_url}"`);
      expect(html).toContain(`${usd(line.item.price)} each`);
      expect(html).toContain(`value="${line.quantity}"`);
      expect(html).toContain(usd(line.totals.find((t: Json) => t.type === "total").amount));
    }
    const expected = checkout.totals.map((t: Json) => [t.type, t.display_text, usd(t.amount)]);
    expect(pageTotals(html)).toEqual(expected);
    const form = theForm(html);
    for (const id of ["contact-email", "address-street_address", "code", "card_number", "card_expiry"]) {
      expect(form, id).toContain(`id="${id}"`);
    }
    expect(form).toContain('<select id="address-address_country"');
    expect(fieldValue(form, "contact-email")).toBe("jane@example.com");
    expect(fieldValue(form, "address-street_address")).toBe("123 Main St");
    expect(form).toContain('<option value="US" selected>');
    expect(form).toMatch(/<input type="radio" id="option-standard" name="option" value="standard" checked>/);
    expect(form).toContain("SAVE10");
    expect(form).toContain("Test mode: no money moves");
    expect(primaryLabel(html)).toBe(`Pay · ${usd(checkout.totals.at(-1).amount)}`);
    // One primary button; no section has a Save button of its own.
    expect(html.match(/id="pay-button"/g)).toHaveLength(1);
    expect(html).not.toMatch(/>Save |Use this shipping method|Place order/);
  });

  it("a checkout still missing details says what is needed by the button, without any error before a submit", async () => {
    const checkout = await startedCheckout();
    const { html } = await open(checkout);
    expect(primaryLabel(html)).toBe("Continue");
    expect(html).toContain('id="still-needed"');
    expect(html).toContain("Before you can pay, the store still needs:");
    expect(html).not.toContain('aria-invalid="true"');
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('class="field-error"');
  });

  it("a tampered token shows nothing of the session, on GET and POST", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const token = session.path.split("/").pop() as string;
    const tampered = `/checkout/${token.slice(0, 12)}${token[12] === "A" ? "B" : "A"}${token.slice(13)}`;
    const got = await getPage(tampered, session.browser);
    expect(got.res.status).toBe(404);
    expect(got.html).not.toContain("jane@example.com");
    expect(got.html).not.toContain("T-Shirt");
    const form = theForm(session.html);
    const posted = await submit(
      tampered,
      form,
      { ...shownFields(form), "contact-email": "evil@example.com", action: "continue" },
      session.browser,
    );
    expect(posted.status).toBe(404);
    expect((await agentRead(checkout.id)).buyer.email).toBe("jane@example.com");
  });

  it("hostile buyer input renders as text", async () => {
    const hostile = `<script>alert(1)</script>"'`;
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }], {
      buyer: { email: "jane@example.com", first_name: hostile },
    });
    const { html } = await open(checkout);
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;");
    // The page's own script only, with this response's nonce.
    expect(html.match(/<script[^>]*>/g)).toEqual([expect.stringMatching(/^<script nonce="[A-Za-z0-9_-]+">$/)]);
  });

  it("links back to the browser's cart", async () => {
    const cart = (await tool("create_cart", { cart: { line_items: [{ item: { id: "item_123" }, quantity: 1 }] } })).body
      .result.structuredContent;
    const cartToken = pathOf(cart.continue_url).split("/").pop() as string;
    const checkout = await startedCheckout();
    const session = await open(checkout);
    expect(session.html).not.toContain("Back to cart");
    session.browser.cookie = `${session.browser.cookie}; ucp_cart=${cartToken}`;
    const again = await getPage(session.path, session.browser);
    expect(again.html).toContain(`<a href="/cart/${cartToken}">‹ Back to cart</a>`);
  });
});

describe("one submit applies every field through update_checkout, and keeps them all", () => {
  it("the buyer types everything once and presses Continue: contact, address and card are kept, and the button becomes Pay", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const typed = {
      "contact-email": "robin@example.com",
      "contact-phone_number": "+15555550100",
      ...TYPED_ADDRESS,
      card_number: "4242 4242 4242 4242",
      ...CARD,
    };
    const done = await press(session, "continue", typed);
    expect(done.status).toBe(200);
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("ready_for_complete");
    expect(read.buyer).toEqual({
      email: "robin@example.com",
      phone_number: "+15555550100",
      first_name: "Jane",
      last_name: "Doe",
    });
    expect(read.fulfillment.methods[0].destinations[0]).toMatchObject({
      ...ADDRESS,
      first_name: "Jane",
      last_name: "Doe",
    });
    for (const [id, value] of Object.entries(typed)) {
      if (id !== "address-address_country") expect(fieldValue(done.html, id), id).toBe(value);
    }
    expect(done.html).toContain('<option value="US" selected>');
    expect(done.html).toContain("Everything is in. Check the total, then press Pay.");
    expect(primaryLabel(done.html)).toBe(`Pay · ${usd(read.totals.at(-1).amount)}`);
    expect(pageTotals(done.html)).toEqual(read.totals.map((t: Json) => [t.type, t.display_text, usd(t.amount)]));

    const paid = await press(session, "pay");
    expect(paid.location).toMatch(/\?n=placed$/);
    expect(paid.location).not.toContain("4242");
    const placed = await agentRead(checkout.id);
    expect(placed.status).toBe("completed");
    expect(placed.payment.instruments[0].display).toEqual({ brand: "visa", last_digits: "4242" });
    expect(paid.html).toContain("Thank you for your order");
  });

  it("a mistyped email is an error next to its field, the summary links there, the rest is saved and nothing typed is lost", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const typed = { "contact-email": "not-an-email", ...TYPED_ADDRESS, card_number: "4242424242424242", ...CARD };
    const done = await press(session, "continue", typed);
    expect(done.status).toBe(422);
    for (const [id, value] of Object.entries(typed)) {
      if (id !== "address-address_country") expect(fieldValue(done.html, id), id).toBe(value);
    }
    expect(done.html).toMatch(
      /<input id="contact-email"[^>]* aria-invalid="true" aria-describedby="err-contact-email">/,
    );
    expect(done.html).toMatch(/<p class="field-error" id="err-contact-email">.*Enter an email address like/);
    expect(summaryLinks(done.html)).toEqual([["Enter an email address like name@example.com.", "contact-email"]]);
    // The summary comes first in main, is announced and takes the focus.
    const main = done.html.slice(done.html.indexOf('<main id="main">'));
    expect(main.indexOf('id="error-summary"')).toBeLessThan(main.indexOf("<form"));
    expect(done.html).toMatch(
      /<div class="notice error error-summary" id="error-summary" role="alert" tabindex="-1"[^>]* autofocus>/,
    );
    const read = await agentRead(checkout.id);
    // The address is saved; the checkout keeps the email it had, not the typo.
    expect(read.buyer.email).toBe("jane@example.com");
    expect(read.fulfillment.methods[0].destinations[0]).toMatchObject(ADDRESS);
  });

  it("Continue with nothing filled in: an error at each field still needed, only after the submit", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const done = await press(session, "continue", { "contact-email": "" });
    expect(done.status).toBe(422);
    expect(summaryLinks(done.html).map((l) => l[1])).toEqual(
      expect.arrayContaining(["contact-email", "address-street_address", "address-address_locality"]),
    );
    expect(done.html).toMatch(/<input id="address-street_address"[^>]* aria-invalid="true"/);
  });

  it("a country the store does not list is refused before the API", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const done = await press(session, "continue", { ...TYPED_ADDRESS, "address-address_country": "XX" });
    expect(summaryLinks(done.html)).toContainEqual(["Choose a country from the list.", "address-address_country"]);
    expect(fieldValue(done.html, "address-street_address")).toBe(ADDRESS.street_address);
    expect(await agentRead(checkout.id)).not.toHaveProperty("fulfillment");
  });

  it("shipping option and quantities in the same form; 0 or Remove takes a line out", async () => {
    const checkout = await startedCheckout();
    const [first, second] = checkout.line_items;
    const session = await open(checkout);
    await press(session, "continue", TYPED_ADDRESS);
    expect(session.html).toContain('<input type="radio" id="option-express" name="option" value="express">');
    const picked = await press(session, "continue", { option: "express", [`qty_${first.id}`]: "3" });
    expect(picked.status).toBe(200);
    let read = await agentRead(checkout.id);
    expect(read.fulfillment.methods[0].groups[0].selected_option_id).toBe("express");
    expect(read.totals.find((t: Json) => t.type === "fulfillment").amount).toBe(1500);
    expect(read.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([
      ["item_123", 3],
      ["item_456", 1],
    ]);
    expect(pageTotals(picked.html)).toEqual(read.totals.map((t: Json) => [t.type, t.display_text, usd(t.amount)]));
    expect(picked.html).toMatch(/<input type="radio" id="option-express" name="option" value="express" checked>/);

    await press(session, "apply", { [`qty_${second.id}`]: "0" });
    read = await agentRead(checkout.id);
    expect(read.line_items.map((l: Json) => l.item.id)).toEqual(["item_123"]);
    await press(session, "", { remove: first.id });
    read = await agentRead(checkout.id);
    expect(read.line_items).toEqual([]);
  });

  it("a quantity that is not a whole number is an error at that line; the other fields are still applied", async () => {
    const checkout = await startedCheckout();
    const [first] = checkout.line_items;
    const session = await open(checkout);
    const done = await press(session, "apply", { [`qty_${first.id}`]: "2.5", "contact-phone_number": "+15555550100" });
    expect(summaryLinks(done.html)).toEqual([["Quantities are whole numbers from 0 to 999.", `qty_${first.id}`]]);
    expect(fieldValue(done.html, `qty_${first.id}`)).toBe("2.5");
    const read = await agentRead(checkout.id);
    expect(read.buyer.phone_number).toBe("+15555550100");
    expect(read.line_items[0].quantity).toBe(2);
  });

  it("discount codes: Apply sends the whole form; applied, rejected with the API's reason next to the field, removed", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 2 }]);
    const session = await open(checkout);
    const applied = await press(session, "apply", { code: "save10", card_number: "4242 4242 4242 4242", ...CARD });
    expect(applied.html).toContain("Discount code applied.");
    expect(fieldValue(applied.html, "card_number")).toBe("4242 4242 4242 4242");
    expect(fieldValue(applied.html, "code")).toBe("");
    let read = await agentRead(checkout.id);
    expect(read.discounts.codes).toEqual(["save10"]);
    expect(read.totals.find((t: Json) => t.type === "items_discount").amount).toBe(-500);
    expect(primaryLabel(applied.html)).toBe(`Pay · ${usd(read.totals.at(-1).amount)}`);
    const rejected = await press(session, "apply", { code: "BOGUS" });
    expect(summaryLinks(rejected.html)).toContainEqual(["Code 'BOGUS' is not a valid discount code.", "code"]);
    read = await agentRead(checkout.id);
    expect(read.discounts.codes).toEqual(["save10", "BOGUS"]);
    await press(session, "", { remove_code: "BOGUS" });
    read = await agentRead(checkout.id);
    expect(read.discounts.codes).toEqual(["save10"]);
  });

  it("a POST without the CSRF token is 403 and changes nothing", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const form = theForm(session.html);
    const fields = { ...shownFields(form), "contact-email": "evil@example.com", action: "continue" };
    const noToken = await submit(session.path, form, { ...fields, _csrf: "" }, session.browser);
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain("This form has expired");
    const noCookie = await submit(session.path, form, fields, { ip: IP });
    expect(noCookie.status).toBe(403);
    const crossSite = await submit(session.path, form, fields, session.browser, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const crossFetch = await submit(session.path, form, fields, session.browser, { "sec-fetch-site": "cross-site" });
    expect(crossFetch.status).toBe(403);
    expect((await agentRead(checkout.id)).buyer).toEqual({ email: "jane@example.com" });
  });

  it("the page's own form posted with Origin: null (what browsers send under no-referrer) is accepted on its token", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const form = theForm(session.html);
    const res = await submit(
      session.path,
      form,
      { ...shownFields(form), "contact-email": "robin@example.com", action: "apply" },
      session.browser,
      { origin: "null", "sec-fetch-site": "same-origin" },
    );
    expect(res.status).toBe(200);
    expect((await agentRead(checkout.id)).buyer).toEqual({ email: "robin@example.com" });
  });
});

describe("paying", () => {
  it("Pay with a changed shipping option applies it and asks again: nothing is charged for a total the buyer has not seen", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const done = await press(session, "pay", { option: "express", card_number: "4242424242424242", ...CARD });
    expect(done.status).toBe(422);
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("ready_for_complete");
    expect(read.fulfillment.methods[0].groups[0].selected_option_id).toBe("express");
    expect(decodeEntities(done.html)).toContain(`The total is now ${usd(read.totals.at(-1).amount)}`);
    expect(primaryLabel(done.html)).toBe(`Pay · ${usd(read.totals.at(-1).amount)}`);
    expect(fieldValue(done.html, "card_number")).toBe("4242424242424242");
    const paid = await press(session, "pay");
    expect(paid.location).toMatch(/\?n=placed$/);
    expect((await agentRead(checkout.id)).status).toBe("completed");
  });

  it("4000…0002 is declined: the page answers with the decline first, at the top, and keeps every field", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const declined = await press(session, "pay", { card_number: "4000000000000002", ...CARD });
    expect(declined.status).toBe(422);
    const main = declined.html.slice(declined.html.indexOf('<main id="main">'));
    const summary = /<div class="notice error error-summary"[\s\S]*?<\/div>/.exec(main)?.[0] ?? "";
    expect(main.indexOf(summary)).toBeLessThan(main.indexOf("<h1>") + 40);
    expect(summary).toContain('role="alert"');
    expect(summary).toContain("The payment was declined and nothing was charged.");
    expect(summary).toContain("The card was declined.");
    expect(summaryLinks(declined.html)[0]?.[1]).toBe("card_number");
    expect(declined.html).not.toContain("Ready to place");
    expect(fieldValue(declined.html, "card_number")).toBe("4000000000000002");
    expect(fieldValue(declined.html, "card_name")).toBe("Jane Doe");
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("ready_for_complete");
    expect(read).not.toHaveProperty("order");
    // Another card pays from the same page.
    const paid = await press(session, "pay", { card_number: "4242424242424242" });
    expect(paid.location).toMatch(/\?n=placed$/);
  });

  it("4000 0027 6000 3184 needs 3-D Secure: the buyer is sent to the verification step", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const res = await press(session, "pay", { ...CARD, card_number: "4000 0027 6000 3184" });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${session.path}/verify`);
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("requires_escalation");
    expect(read.messages.map((m: Json) => m.code)).toContain("requires_3ds");
    const page = await getPage(session.path, session.browser);
    expect(page.html).toContain(`href="${session.path}/verify"`);
  });

  it("any other card number is a field error, never written back into the page, and nothing is charged", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const refused = await press(session, "pay", {
      card_number: "5555 5555 5555 4444",
      card_expiry: "01/20",
      card_cvc: "1",
      card_name: "",
    });
    expect(refused.status).toBe(422);
    expect(summaryLinks(refused.html).map((l) => l[1])).toEqual([
      "card_number",
      "card_expiry",
      "card_cvc",
      "card_name",
    ]);
    expect(refused.html).toContain("use a test card");
    expect(refused.html).toMatch(/<input id="card_number"[^>]* aria-invalid="true"/);
    expect(refused.html).not.toContain("5555");
    expect(fieldValue(refused.html, "card_expiry")).toBe("01/20");
    expect((await agentRead(checkout.id)).status).toBe("ready_for_complete");
  });

  it("resubmitting the same Pay form replays: one order", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const form = theForm(session.html);
    const fields = { ...shownFields(form), ...CARD, card_number: "4242424242424242", action: "pay" };
    const first = await submit(session.path, form, fields, session.browser);
    const again = await submit(session.path, form, fields, session.browser);
    expect(first.headers.get("location")).toMatch(/\?n=placed$/);
    // The session is closed now: the page says so rather than placing anything again.
    expect(again.headers.get("location")).toMatch(/\?n=closed$/);
    expect((await agentRead(checkout.id)).status).toBe("completed");
  });
});

describe("states", () => {
  it("a store neither in test mode nor with a processor says payments are not set up, with no card form", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const request = new Request(checkout.continue_url, { headers: { "cf-connecting-ip": IP } });
    // A fresh env object: the Worker reads its settings per env object.
    const res = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      {
        ...env,
        PAYMENT_TEST_MODE: "false",
      } as Env,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("This store has not set up payments yet");
    expect(html).not.toContain('name="card_number"');
    expect(primaryLabel(html)).toBe("Continue");
    // The rest of the checkout is still the buyer's to review and edit.
    expect(theForm(html)).toContain('id="contact-email"');
  });

  it("a checkout-only platform's escalated checkout is resolved by the buyer's address: the agent sees ready_for_complete", async () => {
    const checkout = await startedCheckout({}, CHECKOUT_ONLY);
    expect(checkout.status).toBe("requires_escalation");
    const session = await open(checkout);
    expect(session.html).toContain("the buyer can give them at continue_url");
    const saved = await press(session, "continue", TYPED_ADDRESS);
    expect(saved.status).toBe(200);
    const read = await agentRead(checkout.id, CHECKOUT_ONLY);
    expect(read.status).toBe("ready_for_complete");
    expect(read).not.toHaveProperty("fulfillment");
    expect((read.messages ?? []).filter((m: Json) => m.type === "error")).toEqual([]);
  });

  it("an expired checkout says so and offers nothing to edit", async () => {
    const checkout = await startedCheckout();
    await rewriteStored(checkout.id, (state) => ({ ...state, expires_at: Date.now() - 1000 }));
    const { html } = await open(checkout);
    expect(html).toContain("This checkout has expired");
    expect(html).toContain("Red T-Shirt");
    expect(html).not.toContain('<form method="post"');
  });

  it("a checkout being placed says so, asks for a refresh, and offers nothing to pay with", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    await rewriteStored(checkout.id, (state) => ({ ...state, status: "complete_in_progress" }));
    const { html } = await open(checkout);
    expect(html).toContain("Your order is being placed");
    expect(html).toContain("Refresh this page");
    expect(html).not.toContain('<form method="post"');
  });

  it("a canceled checkout says so and offers nothing to edit", async () => {
    const checkout = await startedCheckout();
    await checkoutCall("cancel_checkout", { id: checkout.id }, `cancel-${crypto.randomUUID()}`);
    const { html } = await open(checkout);
    expect(html).toContain("This checkout was canceled");
    expect(html).not.toContain('<form method="post"');
  });
});

/** Changes a checkout's stored state directly (time and in-flight states a test cannot wait for). */
async function rewriteStored(id: string, change: (state: Json) => Json): Promise<void> {
  await runInDurableObject(env.CHECKOUT.getByName(id), (_object: unknown, state: DurableObjectState) => {
    const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").toArray()[0];
    if (!row) throw new Error(`no stored checkout ${id}`);
    state.storage.sql.exec("UPDATE checkout SET state = ?", JSON.stringify(change(JSON.parse(row.state))));
  });
}
