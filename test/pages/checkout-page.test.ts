/**
 * The checkout page at continue_url: what it shows is what get_checkout returns, and every
 * form changes the same checkout an agent reads (one state machine, no second path).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { formatMoney } from "../../src/pages/money";
import { ADDRESS, checkoutCall, type Json, readyCheckout } from "../helpers/checkout";
import { PROFILES } from "../helpers/mcp";
import { type Browser, decodeEntities, formsWith, getPage, pathOf, submit } from "../helpers/pages";

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

/** Opens the page in a fresh browser and returns it with the page's HTML. */
async function open(checkout: Json) {
  const browser: Browser = { ip: IP };
  const path = pathOf(checkout.continue_url);
  const page = await getPage(path, browser);
  expect(page.res.status).toBe(200);
  return { browser, path, html: page.html };
}

/** Submits the page's form for `action` with `fields`; returns the redirect and the page after it. */
async function post(
  session: { browser: Browser; path: string; html: string },
  action: string,
  fields: Record<string, string>,
) {
  const form = formsWith(session.html, "action", action)[0];
  expect(form, `a form for ${action}`).toBeDefined();
  const res = await submit(session.path, form as string, fields, session.browser);
  expect(res.status).toBe(303);
  const location = res.headers.get("location") ?? "";
  const after = location.startsWith(session.path) ? await getPage(location, session.browser) : undefined;
  if (after) session.html = after.html;
  return { location, html: after?.html ?? "" };
}

/** The totals rows as the page shows them: [type, label, amount]. */
function pageTotals(html: string): string[][] {
  const rows = [
    ...html.matchAll(/<tr[^>]*data-total="([^"]+)"><th scope="row">([^<]*)<\/th><td class="num">([^<]*)<\/td>/g),
  ];
  return rows.map((r) => [r[1] as string, decodeEntities(r[2] as string), decodeEntities(r[3] as string)]);
}

const CARD = { card_expiry: "12/40", card_cvc: "123", card_name: "Jane Doe" };

describe("the checkout page shows the checkout as the API computes it", () => {
  it("lists every line with its image, unit price, quantity and line total, and every totals entry", async () => {
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
    expect(expected.map((e: string[]) => e[0])).toEqual(
      expect.arrayContaining(["subtotal", "items_discount", "fulfillment", "total"]),
    );
    expect(html).toContain("jane@example.com");
    expect(html).toContain('value="123 Main St"');
    expect(html).toContain('<option value="US" selected>');
    expect(html).toMatch(/<input type="radio" id="option-standard" name="option" value="standard" checked>/);
    expect(html).toContain("SAVE10");
    expect(html).toContain("test mode");
    expect(html).toContain(`Place order · ${usd(checkout.totals.at(-1).amount)}`);
  });

  it("a tampered token shows nothing of the session, on GET and POST", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const { html, browser, path } = await open(checkout);
    const token = path.split("/").pop() as string;
    const tampered = `/checkout/${token.slice(0, 12)}${token[12] === "A" ? "B" : "A"}${token.slice(13)}`;
    const got = await getPage(tampered, browser);
    expect(got.res.status).toBe(404);
    expect(got.html).not.toContain("jane@example.com");
    expect(got.html).not.toContain("T-Shirt");
    const form = formsWith(html, "action", "contact")[0] as string;
    const posted = await submit(tampered, form, { email: "evil@example.com" }, browser);
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
    expect(html.match(/<script/g) ?? []).toEqual([]);
  });
});

describe("each form changes the checkout the agent reads", () => {
  it("contact details", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const { location, html } = await post(session, "contact", {
      email: "robin@example.com",
      first_name: "Robin",
      last_name: "Doe",
      phone_number: "+15555550100",
    });
    expect(location).toMatch(/\?n=contact_saved$/);
    expect(location).not.toContain("robin");
    expect(html).toContain("Contact details saved.");
    const read = await agentRead(checkout.id);
    expect(read.buyer).toEqual({
      email: "robin@example.com",
      first_name: "Robin",
      last_name: "Doe",
      phone_number: "+15555550100",
    });
  });

  it("a malformed email is a field error and changes nothing", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const { location, html } = await post(session, "contact", { email: "not-an-email" });
    expect(location).toMatch(/\?n=email$/);
    expect(html).toMatch(/<input id="contact-email"[^>]* aria-invalid="true" aria-describedby="fb-contact-1">/);
    expect(html).toContain('<div class="notice error" role="alert">');
    expect((await agentRead(checkout.id)).buyer.email).toBe("jane@example.com");
  });

  it("shipping address, then shipping option", async () => {
    const checkout = await startedCheckout();
    expect(checkout.status).toBe("incomplete");
    const session = await open(checkout);
    expect(session.html).toContain("Shipping methods appear once the shipping address is saved.");
    const saved = await post(session, "address", { ...ADDRESS, first_name: "Jane", last_name: "Doe" });
    expect(saved.location).toMatch(/\?n=address_saved$/);
    const afterAddress = await agentRead(checkout.id);
    expect(afterAddress.status).toBe("ready_for_complete");
    const destination = afterAddress.fulfillment.methods[0].destinations[0];
    expect(destination).toMatchObject({ ...ADDRESS, first_name: "Jane", last_name: "Doe" });
    expect(saved.html).toContain('<input type="radio" id="option-express" name="option" value="express">');

    const picked = await post(session, "shipping", { option: "express" });
    expect(picked.location).toMatch(/\?n=shipping_saved$/);
    const afterOption = await agentRead(checkout.id);
    expect(afterOption.fulfillment.methods[0].groups[0].selected_option_id).toBe("express");
    const shipping = afterOption.totals.find((t: Json) => t.type === "fulfillment");
    expect(shipping.amount).toBe(1500);
    expect(pageTotals(picked.html)).toEqual(
      afterOption.totals.map((t: Json) => [t.type, t.display_text, usd(t.amount)]),
    );
  });

  it("a country the store does not list is refused before the API", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const { location } = await post(session, "address", { ...ADDRESS, address_country: "XX" });
    expect(location).toMatch(/\?n=country$/);
    expect(await agentRead(checkout.id)).not.toHaveProperty("fulfillment");
  });

  it("quantities, and 0 or Remove takes a line out", async () => {
    const checkout = await startedCheckout();
    const [first, second] = checkout.line_items;
    const session = await open(checkout);
    const changed = await post(session, "items", { [`qty_${first.id}`]: "3", [`qty_${second.id}`]: "1" });
    expect(changed.location).toMatch(/\?n=items_saved$/);
    let read = await agentRead(checkout.id);
    expect(read.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([
      ["item_123", 3],
      ["item_456", 1],
    ]);
    await post(session, "items", { [`qty_${first.id}`]: "3", [`qty_${second.id}`]: "0" });
    read = await agentRead(checkout.id);
    expect(read.line_items.map((l: Json) => l.item.id)).toEqual(["item_123"]);
    // The Remove button submits its own form: only the line it names.
    const removeForm = session.html.match(/<form[^>]*id="remove-line"[\s\S]*?<\/form>/)?.[0] as string;
    const res = await submit(session.path, removeForm, { remove: first.id }, session.browser);
    expect(res.status).toBe(303);
    read = await agentRead(checkout.id);
    expect(read.line_items).toEqual([]);
  });

  it("discount codes: applied, rejected with the API's reason, removed", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 2 }]);
    const session = await open(checkout);
    const applied = await post(session, "discount_add", { code: "save10" });
    expect(applied.location).toMatch(/\?n=discount_applied$/);
    let read = await agentRead(checkout.id);
    expect(read.discounts.codes).toEqual(["save10"]);
    expect(read.totals.find((t: Json) => t.type === "items_discount").amount).toBe(-500);
    const rejected = await post(session, "discount_add", { code: "BOGUS" });
    expect(rejected.location).toMatch(/\?n=discount_rejected$/);
    expect(decodeEntities(rejected.html)).toContain("Code 'BOGUS' is not a valid discount code.");
    read = await agentRead(checkout.id);
    expect(read.discounts.codes).toEqual(["save10", "BOGUS"]);
    const removeForms = formsWith(rejected.html, "action", "discount_remove");
    const bogus = removeForms.find((f) => f.includes('value="BOGUS"')) as string;
    const res = await submit(session.path, bogus, {}, session.browser);
    expect(res.headers.get("location")).toMatch(/\?n=discount_removed$/);
    read = await agentRead(checkout.id);
    expect(read.discounts.codes).toEqual(["save10"]);
  });

  it("a POST without the CSRF token is 403 and changes nothing", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const form = formsWith(session.html, "action", "contact")[0] as string;
    const noToken = await submit(session.path, form, { _csrf: "", email: "evil@example.com" }, session.browser);
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain("This form has expired");
    const noCookie = await submit(session.path, form, { email: "evil@example.com" }, { ip: IP });
    expect(noCookie.status).toBe(403);
    const crossSite = await submit(session.path, form, { email: "evil@example.com" }, session.browser, {
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    const crossFetch = await submit(session.path, form, { email: "evil@example.com" }, session.browser, {
      "sec-fetch-site": "cross-site",
    });
    expect(crossFetch.status).toBe(403);
    expect((await agentRead(checkout.id)).buyer).toEqual({ email: "jane@example.com" });
  });

  it("the page's own form posted with Origin: null (what browsers send under no-referrer) is accepted on its token", async () => {
    const checkout = await startedCheckout();
    const session = await open(checkout);
    const form = formsWith(session.html, "action", "contact")[0] as string;
    const res = await submit(session.path, form, { email: "robin@example.com" }, session.browser, {
      origin: "null",
      "sec-fetch-site": "same-origin",
    });
    expect(res.status).toBe(303);
    expect((await agentRead(checkout.id)).buyer).toEqual({ email: "robin@example.com" });
  });
});

describe("placing the order", () => {
  it("4242… completes: the page confirms with the order link, and the agent sees completed with the order", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const placed = await post(session, "place", { ...CARD, card_number: "4242 4242 4242 4242" });
    expect(placed.location).toMatch(/\?n=placed$/);
    expect(placed.location).not.toContain("4242");
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("completed");
    expect(read.order.id).toMatch(/^ord_/);
    expect(read.payment.instruments[0].display).toEqual({ brand: "visa", last_digits: "4242" });
    expect(JSON.stringify(read)).not.toContain("4242424242424242");
    expect(placed.html).toContain("Thank you for your order");
    expect(placed.html).toContain(read.order.id);
    expect(placed.html).toContain(`href="${read.order.permalink_url}"`);
    expect(placed.html).toContain("Red T-Shirt");
    expect(placed.html).toContain(usd(read.totals.at(-1).amount));
    expect(formsWith(placed.html, "action", "contact")).toEqual([]);
  });

  it("4000…0002 is declined: the error is on the payment section and the checkout stays open", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const declined = await post(session, "place", { ...CARD, card_number: "4000000000000002" });
    expect(declined.location).toMatch(/\?n=declined$/);
    const payment = declined.html.slice(declined.html.indexOf('id="h-payment"'));
    expect(payment).toContain("The payment was declined");
    expect(payment).toContain("The card was declined.");
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("ready_for_complete");
    expect(read).not.toHaveProperty("order");
  });

  it("4000 0027 6000 3184 needs 3-D Secure: the buyer is sent to the verification step", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const form = formsWith(session.html, "action", "place")[0] as string;
    const res = await submit(session.path, form, { ...CARD, card_number: "4000 0027 6000 3184" }, session.browser);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${session.path}/verify`);
    const read = await agentRead(checkout.id);
    expect(read.status).toBe("requires_escalation");
    expect(read.messages.map((m: Json) => m.code)).toContain("requires_3ds");
    const page = await getPage(session.path, session.browser);
    expect(page.html).toContain(`href="${session.path}/verify"`);
  });

  it("any other card number is a field error and nothing is charged", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const refused = await post(session, "place", {
      card_number: "5555 5555 5555 4444",
      card_expiry: "01/20",
      card_cvc: "1",
      card_name: "",
    });
    expect(refused.location).toMatch(/\?n=card_number,card_expiry,card_cvc,card_name$/);
    expect(refused.html).toContain("use a test card");
    expect(refused.html).toMatch(/<input id="card_number"[^>]* aria-invalid="true"/);
    expect(refused.html).not.toContain("5555");
    expect((await agentRead(checkout.id)).status).toBe("ready_for_complete");
  });

  it("resubmitting the same place-order form replays: one order", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const session = await open(checkout);
    const form = formsWith(session.html, "action", "place")[0] as string;
    const fields = { ...CARD, card_number: "4242424242424242" };
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
    expect(formsWith(html, "action", "place")).toEqual([]);
    // The rest of the checkout is still the buyer's to review and edit.
    expect(formsWith(html, "action", "contact")).toHaveLength(1);
  });

  it("a checkout-only platform's escalated checkout is resolved by the buyer's address: the agent sees ready_for_complete", async () => {
    const checkout = await startedCheckout({}, CHECKOUT_ONLY);
    expect(checkout.status).toBe("requires_escalation");
    const session = await open(checkout);
    expect(session.html).toContain("the buyer can give them at continue_url");
    const saved = await post(session, "address", { ...ADDRESS });
    expect(saved.location).toMatch(/\?n=address_saved$/);
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
