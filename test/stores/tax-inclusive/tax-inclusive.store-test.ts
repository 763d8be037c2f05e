/**
 * A store whose prices include tax (vitest.config.ts: 19% VAT in Germany, shipping taxable):
 * the buyer pays the catalog's gross prices plus gross shipping less discounts, never tax on
 * top; the included VAT is the `total` entry's "incl." sub-lines (no top-level tax entry,
 * so Σ non-total == total still holds for platforms), valid against both versions' official
 * schemas over MCP and REST, and shown as "incl. VAT (19%)" on the checkout and order pages.
 */
import { describe, expect, it } from "vitest";
import { includedTaxes } from "../../../src/checkout/included-tax";
import { type Json, pay, tool } from "../../helpers/checkout";
import { FULL_PROFILE, PROFILES } from "../../helpers/mcp";
import { OFFICIAL, validateCheckout, validateOfficial } from "../../helpers/official-schema";
import { CURRENT, validateComposed, validateCurrent } from "../../helpers/official-schema-current";
import { getPage } from "../../helpers/pages";
import { rest } from "../../rest/rest-client";

const CURRENT_PROFILE = `${PROFILES}/v2026-08-25/full.json`;
const BERLIN = {
  first_name: "Erika",
  last_name: "Muster",
  street_address: "Unter den Linden 1",
  address_locality: "Berlin",
  postal_code: "10117",
  address_country: "DE",
};
const SHOE = "var_abc123_blue_10"; // 12000 in the demo catalog
const INTERNATIONAL = 2500; // wrangler.toml's "*" zone, not free-eligible

function checkoutArgs(extra: Json = {}): Json {
  return {
    checkout: {
      line_items: [{ item: { id: SHOE }, quantity: 1 }],
      buyer: { email: "erika@example.com" },
      fulfillment: { methods: [{ type: "shipping", destinations: [BERLIN] }] },
      ...extra,
    },
  };
}

async function payload(name: string, args: Json, profile: string, key?: string): Promise<Json> {
  const reply = await tool(name, args, key, profile);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.result.structuredContent;
}

const byType = (totals: Json[], type: string) => totals.filter((t) => t.type === type);

/** Gross in, nothing added: the included tax is the total's sub-lines, which sum to it. */
function expectInclusive(checkout: Json, gross: number, vat: number) {
  const totals: Json[] = checkout.totals;
  expect(byType(totals, "tax")).toEqual([]);
  const total = byType(totals, "total")[0];
  expect(total.amount).toBe(gross);
  expect(totals.filter((t) => t.type !== "total").reduce((s, t) => s + t.amount, 0)).toBe(gross);
  expect(total.lines).toEqual([
    { type: "tax", display_text: "incl. VAT (19%)", amount: vat },
    { type: "net", display_text: "Net amount", amount: gross - vat },
  ]);
}

describe("a tax-inclusive store", { timeout: 60_000 }, () => {
  it("the rounding: per order and rate, half-up, from the gross base (GST + PST share one gross)", () => {
    const vat = [{ country: "DE", rate_bps: 1900, label: "VAT" }];
    expect(includedTaxes(14500, vat)[0]?.amount).toBe(2315); // 2315.13
    expect(includedTaxes(119, vat)[0]?.amount).toBe(19); // exact
    expect(includedTaxes(6, vat)[0]?.amount).toBe(1); // 0.958
    expect(includedTaxes(3, vat)[0]?.amount).toBe(0); // 0.479
    const bc = [
      { country: "CA", region: "BC", rate_bps: 500, label: "GST" },
      { country: "CA", region: "BC", rate_bps: 700, label: "PST" },
    ];
    expect(includedTaxes(11200, bc).map((t) => t.amount)).toEqual([500, 700]);
  });

  it("MCP 2026-04-08: gross prices and shipping, VAT included once, schema-valid, and the order keeps it", async () => {
    const created = await payload("create_checkout", checkoutArgs(), FULL_PROFILE);
    expect(validateCheckout(created)).toEqual([]);
    expect(byType(created.totals, "subtotal")[0].amount).toBe(12000);
    expect(byType(created.totals, "fulfillment")[0].amount).toBe(INTERNATIONAL);
    expectInclusive(created, 14500, 2315);

    // A discount lowers the gross, and the tax with it.
    const discounted = await payload(
      "update_checkout",
      { id: created.id, ...checkoutArgs({ discounts: { codes: ["SAVE10"] } }) },
      FULL_PROFILE,
    );
    expect(validateCheckout(discounted)).toEqual([]);
    expectInclusive(discounted, 13300, 2124); // 13300 × 19 / 119 = 2123.53

    const done = await payload(
      "complete_checkout",
      { id: created.id, checkout: pay("success_token") },
      FULL_PROFILE,
      crypto.randomUUID(),
    );
    expect(done.status).toBe("completed");
    expectInclusive(done, 13300, 2124);
    const order = await payload("get_order", { id: done.order.id }, FULL_PROFILE);
    expect(validateOfficial(OFFICIAL.order, order).errors).toEqual([]);
    expectInclusive(order, 13300, 2124);

    // The buyer's pages: "incl. VAT (19%)" under the total, the total the gross.
    const page = await getPage(new URL(done.order.permalink_url).pathname);
    expect(page.html).toMatch(
      /<tr class="included"[^>]*><td>incl\. VAT \(19%\)<\/td><td class="num">\$21\.24<\/td><\/tr>/,
    );
    expect(page.html).not.toContain(">Net amount<");
  });

  it("MCP 2026-08-25: the same totals, valid against the current schemas", async () => {
    const created = await payload("create_checkout", checkoutArgs(), CURRENT_PROFILE);
    expect(validateComposed(CURRENT.checkout, "dev.ucp.shopping.checkout", created)).toEqual([]);
    expectInclusive(created, 14500, 2315);
    const done = await payload(
      "complete_checkout",
      { id: created.id, checkout: pay("success_token") },
      CURRENT_PROFILE,
      crypto.randomUUID(),
    );
    expectInclusive(done, 14500, 2315);
    const order = await payload("get_order", { id: done.order.id }, CURRENT_PROFILE);
    expect(validateCurrent(CURRENT.order, order).errors).toEqual([]);
    expectInclusive(order, 14500, 2315);
  });

  it("REST: the checkout session carries the same totals; a US order in California includes its rate", async () => {
    const created = await rest("POST", "/checkout-sessions", { body: checkoutArgs().checkout });
    expect(created.status, created.text).toBe(201);
    expect(validateCheckout(created.body)).toEqual([]);
    expectInclusive(created.body, 14500, 2315);

    const california = { ...BERLIN, address_region: "CA", address_country: "US", postal_code: "94103" };
    const us = await rest("PUT", `/checkout-sessions/${created.body.id}`, {
      body: {
        ...checkoutArgs().checkout,
        fulfillment: { methods: [{ type: "shipping", destinations: [california] }] },
      },
    });
    expect(us.status, us.text).toBe(200);
    // Free standard shipping over $75: 12000 gross, 12000 × 725 / 10725 = 811.19.
    const total = byType(us.body.totals, "total")[0];
    expect(total.amount).toBe(12000);
    expect(total.lines[0]).toEqual({ type: "tax", display_text: "incl. California Sales Tax", amount: 811 });
  });

  it("the checkout page shows the included VAT under the total", async () => {
    const created = await payload("create_checkout", checkoutArgs(), FULL_PROFILE);
    const { html } = await getPage(new URL(created.continue_url).pathname);
    expect(html).toMatch(
      /<tr class="total" data-total="total"><th scope="row">Total<\/th><td class="num">\$145\.00<\/td><\/tr><tr class="included" data-total="included_tax"><th scope="row">incl\. VAT \(19%\)<\/th><td class="num">\$23\.15<\/td><\/tr>/,
    );
    expect(html).not.toMatch(/data-total="tax"/);
  });

  it("the cart page says its prices include tax", async () => {
    const cart = await payload(
      "create_cart",
      { cart: { line_items: [{ item: { id: SHOE }, quantity: 1 }] } },
      FULL_PROFILE,
    );
    const cartPage = await getPage(new URL(cart.continue_url).pathname);
    expect(cartPage.html).toContain("Prices include tax. Shipping is worked out at checkout.");
  });
});
