/**
 * The order page's Payment card (issue 24 item 6) in the test-mode store: the brand and last
 * four digits the checkout displayed (carried into the order at creation), where the money
 * stands (captured, refunded in part), and the test processor's reference as plain text (no
 * Stripe link: it is not a PaymentIntent). A platform's display text is escaped. The Stripe
 * store's card (the dashboard link): test/payment/stripe/stripe-capture.stripe-test.ts.
 */
import { describe, expect, it } from "vitest";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { type Browser, openPage, signIn } from "../helpers/console";
import { admin } from "../order/order-helpers";

let ip = 0;
const browser = (): Promise<Browser> => signIn({ ip: `198.51.100.${200 + ++ip}` });
const SLOW = { timeout: 30_000 };

async function order(display: Record<string, unknown>): Promise<string> {
  const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
  const payment = pay("success_token");
  const instrument = { ...payment.payment.instruments[0], display };
  const done = (
    await tool(
      "complete_checkout",
      { id: checkout.id, checkout: { payment: { instruments: [instrument] } } },
      crypto.randomUUID(),
    )
  ).body.result.structuredContent;
  expect(done.status, JSON.stringify(done)).toBe("completed");
  return done.order.id;
}

async function card(orderId: string, b: Browser): Promise<string> {
  const page = await openPage(`/admin/orders/${orderId}`, b);
  expect(page.res.status).toBe(200);
  const found = /<section class="card" aria-labelledby="payment">[\s\S]*?<\/section>/.exec(page.html)?.[0];
  expect(found, page.html).toBeDefined();
  return found ?? "";
}

describe("the order page's Payment card", () => {
  it("shows brand and last four, captured, then refunded in part, and the test charge as text", SLOW, async () => {
    const b = await browser();
    const orderId = await order({ brand: "visa", last_digits: "4242" });
    let shown = await card(orderId, b);
    expect(shown).toContain("Visa ending in 4242");
    expect(shown).toMatch(/Captured \$\d+\.\d\d/);
    expect(shown).toMatch(/ch_test_[0-9a-f]{16}<\/span> <span class="muted">\(test processor: no money moved\)/);
    expect(shown).not.toContain("dashboard.stripe.com");

    expect((await admin(orderId, "adjustments", { type: "refund", amount: 100 })).status).toBe(200);
    shown = await card(orderId, b);
    expect(shown).toMatch(/Refunded in part: \$1\.00 of \$\d+\.\d\d captured/);
  });

  it("escapes a platform's display text and keeps no digits beyond the last four", SLOW, async () => {
    const b = await browser();
    const orderId = await order({ brand: '<img src=x onerror="alert(1)">', last_digits: "4242424242424242" });
    const shown = await card(orderId, b);
    expect(shown).not.toContain("<img");
    expect(shown).toContain("&lt;img src=x onerror=");
    expect(shown).not.toContain("4242424242424242");
    expect(shown).not.toContain("ending in");
  });
});
