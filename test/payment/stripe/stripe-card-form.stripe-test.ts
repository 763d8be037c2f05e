/**
 * The checkout page's card form on a store charging through Stripe (issue 24 item 3), as a
 * browser uses it (test/helpers/pages.ts) with Stripe.js's part played by the test against
 * the stand-in: the page carries the Payment Element's mount point, Stripe.js from
 * js.stripe.com, the publishable key and one PaymentIntent's client_secret (created once per
 * checkout and total), and a CSP that allows Stripe and nothing else; after the browser
 * confirmed, the page's form places the order on that same PaymentIntent. Another checkout's
 * PaymentIntent is refused.
 */
import { exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type Json, tool } from "../../helpers/checkout";
import { pressCheckout } from "../../helpers/checkout-form";
import { FULL_PROFILE } from "../../helpers/mcp";
import { type Browser, decodeEntities, getPage, pathOf } from "../../helpers/pages";
import { ADMIN_TOKEN } from "../../order/order-helpers";

const STAND_IN = "https://stripe.test/__stand-in";
const SECRET = "sk_test_workerdStandIn";
const IP = `10.77.${Math.floor(Math.random() * 250) + 1}.9`;

beforeEach(async () => {
  await fetch(`${STAND_IN}/reset`, { method: "POST" });
});

async function ready(): Promise<Json> {
  const reply = await tool(
    "create_checkout",
    {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com", first_name: "Jane" },
        fulfillment: {
          methods: [
            {
              type: "shipping",
              destinations: [
                {
                  street_address: "1 Main St",
                  address_locality: "Springfield",
                  address_region: "IL",
                  postal_code: "62701",
                  address_country: "US",
                },
              ],
            },
          ],
        },
      },
    },
    undefined,
    FULL_PROFILE,
  );
  const checkout = reply.body.result.structuredContent;
  expect(checkout.status, JSON.stringify(checkout.messages)).toBe("ready_for_complete");
  return checkout;
}

async function intentsOf(checkoutId: string): Promise<Json[]> {
  const res = await fetch(`${STAND_IN}/payment_intents?metadata[ucp_checkout_id]=${encodeURIComponent(checkoutId)}`);
  return ((await res.json()) as Json).data;
}

/** What Stripe.js does in the buyer's browser: confirm the PaymentIntent with a test card. */
async function browserConfirms(intentId: string, paymentMethod = "pm_card_visa"): Promise<Json> {
  const res = await fetch(`https://stripe.test/v1/payment_intents/${intentId}/confirm`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ payment_method: paymentMethod }),
  });
  return res.json();
}

function attr(html: string, name: string): string {
  return decodeEntities(new RegExp(`${name}="([^"]*)"`).exec(html)?.[1] ?? "");
}

describe("the checkout page's card form (Stripe's Payment Element)", () => {
  it("carries Stripe.js, the publishable key and one PaymentIntent's client_secret, under a CSP allowing Stripe only", async () => {
    const checkout = await ready();
    const browser: Browser = { ip: IP };
    const page = await getPage(pathOf(checkout.continue_url), browser);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('<div id="stripe-payment-element"></div>');
    expect(page.html).toContain('src="https://js.stripe.com/v3"');
    expect(attr(page.html, "data-publishable-key")).toBe("pk_test_workerdStandIn");
    expect(page.html).toContain("Paying by card on this page needs JavaScript");
    expect(page.html).not.toContain(SECRET);
    expect(page.html).not.toContain("card_number");
    const csp = page.res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'nonce-[^']+' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com;/);
    expect(csp).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;");
    // 'self': the page's own script may send its form in the background (checkout-script.ts).
    expect(csp).toContain("connect-src 'self' https://stripe.test;");

    const [intent] = await intentsOf(checkout.id);
    const total = checkout.totals.find((t: Json) => t.type === "total").amount;
    expect(intent).toMatchObject({
      amount: total,
      currency: "usd",
      capture_method: "manual",
      status: "requires_payment_method",
    });
    expect(attr(page.html, "data-client-secret")).toBe(intent.client_secret);
    // A reload: the same PaymentIntent.
    const again = await getPage(pathOf(checkout.continue_url), browser);
    expect(attr(again.html, "data-client-secret")).toBe(intent.client_secret);
    expect(await intentsOf(checkout.id)).toHaveLength(1);
  });

  it("after the browser confirmed, the page places the order on that PaymentIntent, captured once", async () => {
    const checkout = await ready();
    const browser: Browser = { ip: IP };
    const path = pathOf(checkout.continue_url);
    const page = await getPage(path, browser);
    const [intent] = await intentsOf(checkout.id);
    expect((await browserConfirms(intent.id)).status).toBe("requires_capture");

    const placed = await pressCheckout(path, page.html, "pay", { payment_intent: intent.id }, browser);
    expect(placed.status).toBe(303);
    expect(placed.headers.get("location")).toMatch(/\?n=placed$/);
    const done = await getPage(pathOf(checkout.continue_url), browser);
    expect(done.html).toContain("Thank you for your order");
    expect(done.res.headers.get("content-security-policy")).not.toContain("stripe");

    const intents = await intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ id: intent.id, status: "succeeded", amount_received: intent.amount });
    expect(intents[0].metadata.ucp_attempt).toBeTruthy();
    // The order says what was paid with, as Stripe reports the card (the page never saw it).
    const read = await tool("get_checkout", { id: checkout.id }, undefined, FULL_PROFILE);
    const orderId = read.body.result.structuredContent.order.id;
    const order = await exports.default.fetch(`https://shop.example.com/admin/orders/${orderId}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(((await order.json()) as Json).payment_display).toEqual({
      handler_id: "stripe_payments",
      brand: "visa",
      last_digits: "4242",
    });
  });

  it("a reload after paying offers to place the order without the Payment Element", async () => {
    const checkout = await ready();
    const browser: Browser = { ip: IP };
    await getPage(pathOf(checkout.continue_url), browser);
    const [intent] = await intentsOf(checkout.id);
    await browserConfirms(intent.id);
    const page = await getPage(pathOf(checkout.continue_url), browser);
    expect(page.html).toContain("Your card payment is confirmed");
    expect(page.html).not.toContain("stripe-payment-element");
    expect(page.res.headers.get("content-security-policy")).not.toContain("stripe");
    expect(page.html).toMatch(
      /<button type="submit" name="action" value="pay" id="pay-button" class="place">Place order · /,
    );
    const placed = await pressCheckout(pathOf(checkout.continue_url), page.html, "pay", {}, browser);
    expect(placed.headers.get("location")).toMatch(/\?n=placed$/);
  });

  it("another checkout's PaymentIntent is refused and charges nothing", async () => {
    const first = await ready();
    const second = await ready();
    const browser: Browser = { ip: IP };
    await getPage(pathOf(first.continue_url), browser);
    const [paid] = await intentsOf(first.id);
    await browserConfirms(paid.id);
    const page = await getPage(pathOf(second.continue_url), browser);
    const refused = await pressCheckout(
      pathOf(second.continue_url),
      page.html,
      "pay",
      { payment_intent: paid.id },
      browser,
    );
    // The page comes back with the decline at the top.
    expect(refused.status).toBe(422);
    expect(await refused.text()).toMatch(/id="error-summary" role="alert"[\s\S]*The payment was declined/);
    const read = await tool("get_checkout", { id: second.id }, undefined, FULL_PROFILE);
    expect(read.body.result.structuredContent.status).toBe("ready_for_complete");
    expect((await intentsOf(first.id))[0].status).toBe("requires_capture");
  });
});
