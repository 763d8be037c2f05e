/**
 * Fulfilling from the console's order page (issue 26 item 1), in workerd as a signed-in browser
 * uses it: the page shows the recipient (name, address, phone), the shipping method and price
 * paid, the payment and a packing slip (no prices); ship two of three lines with tracking, refund
 * the third by line with restock (stock, totals, removed and restocked on the page; the same form
 * again changes nothing); actions that no longer apply are gone.
 */
import { describe, expect, it } from "vitest";
import type { Json } from "../helpers/checkout";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { type Browser, openPage, postForm, signIn } from "../helpers/console";
import { locationPath } from "../helpers/pages";
import { getOrder } from "../order/order-helpers";

const VARIANTS = ["var_mcb_navy_m", "var_srs_black_m", "var_trt_blue_l"] as const;
const RECIPIENT = {
  first_name: "Ada",
  last_name: "Lovelace",
  phone_number: "+1 217 555 0142",
  street_address: "12 Analytical Way",
  extended_address: "Apt 3",
  address_locality: "Springfield",
  address_region: "IL",
  postal_code: "62701",
  address_country: "US",
};

async function placeThreeLines(): Promise<Json> {
  const checkout = await readyCheckout(
    VARIANTS.map((id, i) => ({ id, quantity: i + 1 })),
    { fulfillment: { methods: [{ type: "shipping", destinations: [RECIPIENT] }] } },
  );
  const done = (
    await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, crypto.randomUUID())
  ).body.result.structuredContent;
  expect(done.status, JSON.stringify(done)).toBe("completed");
  return getOrder(done.order.id);
}

const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
const cell = (html: string, attr: string) => new RegExp(`${attr}">([^<]*(?:<strong>[^<]*</strong>)?)`).exec(html)?.[1];
const stockCell = (html: string, variant: string) => Number(cell(html, `data-stock="${variant}`));

async function page(orderId: string, b: Browser): Promise<string> {
  const { res, html } = await openPage(`/admin/orders/${orderId}`, b);
  expect(res.status, html.slice(0, 300)).toBe(200);
  return html;
}

describe("fulfil from the order page", { timeout: 60_000 }, () => {
  it("shows recipient, shipping, payment; ships two lines, refunds the third with restock, once", async () => {
    const b = await signIn({ ip: "198.51.100.77" });
    const order = await placeThreeLines();
    const id = order.id as string;
    const lines = VARIANTS.map((v) => order.line_items.find((l: Json) => l.item.id === v));
    const total = order.totals.find((t: Json) => t.type === "total").amount;
    const shipping = order.totals.find((t: Json) => t.type === "fulfillment")?.amount ?? 0;

    const first = await page(id, b);
    expect(first).toContain(
      "<strong>Ada Lovelace</strong><br>12 Analytical Way<br>Apt 3<br>Springfield, IL 62701<br>US",
    );
    expect(first).toContain('Phone: <a href="tel:+12175550142">+1 217 555 0142</a>');
    expect(first).toMatch(
      new RegExp(
        `<dt>Shipping method</dt><dd>[^<]+ · <strong>${shipping === 0 ? "Free" : `\\${money(shipping)}`}</strong>`,
      ),
    );
    expect(first).toContain("Visa ending in 4242");
    expect(first).toContain(`href="/admin/orders/${id}/packing-slip"`);
    expect(first).toContain("SKU MCB-NVY-M");
    expect(first).toContain(`data-total="refunded">$0.00<`);
    expect(first).toContain(`data-total="net"><strong>${money(total)}</strong>`);
    expect(first).toContain(`/admin/orders/${id}/cancel`);
    const stockBefore = stockCell(first, VARIANTS[2]);
    expect(Number.isInteger(stockBefore)).toBe(true);

    // Ship lines one and two (1 and 2 units), with tracking; the third stays.
    const ship = await postForm(
      first,
      `/admin/orders/${id}/ship`,
      {
        [`ship:${lines[0].id}`]: "1",
        [`ship:${lines[1].id}`]: "2",
        [`ship:${lines[2].id}`]: "0",
        carrier: "UPS",
        tracking_number: "1Z999AA10123456784",
        confirm: "yes",
      },
      b,
    );
    expect(ship.status, await ship.clone().text()).toBe(303);
    expect(locationPath(ship)).toBe(`/admin/orders/${id}`);
    const shipped = await getOrder(id);
    expect(shipped.fulfillment.events).toMatchObject([
      {
        type: "shipped",
        carrier: "UPS",
        tracking_number: "1Z999AA10123456784",
        line_items: [
          { id: lines[0].id, quantity: 1 },
          { id: lines[1].id, quantity: 2 },
        ],
      },
    ]);
    const second = await page(id, b);
    expect(second).toContain("Partially shipped");

    // Refund the third line (3 units) by line with restock.
    const share = lines[2].totals.find((t: Json) => t.type === "total").amount;
    const fields = { [`refund:${lines[2].id}`]: "3", restock: "yes", confirm: "yes" };
    const refund = await postForm(second, `/admin/orders/${id}/refund`, fields, b);
    expect(refund.status, await refund.clone().text()).toBe(303);
    const third = await page(id, b);
    expect(stockCell(third, VARIANTS[2])).toBe(stockBefore + 3);
    expect(third).toMatch(new RegExp(`data-total="refunded">-\\${money(share)}`));
    expect(third).toContain(`data-total="net"><strong>${money(total - share)}</strong>`);
    expect(third).toContain("Shipped</span>");
    // Nothing left to ship, nothing to cancel; the refund form offers only what is left.
    expect(third).not.toContain(`/admin/orders/${id}/ship"`);
    expect(third).not.toContain(`/admin/orders/${id}/cancel"`);
    expect(third).not.toContain(`name="refund:${lines[2].id}"`);
    expect(third).toContain(`/admin/orders/${id}/deliver"`);

    // The same form again (a double submit, a reload): one refund, one restock.
    const again = await postForm(second, `/admin/orders/${id}/refund`, fields, b);
    expect(again.status).toBe(303);
    const after = await getOrder(id);
    expect(after.adjustments.filter((a: Json) => a.type === "refund")).toHaveLength(1);
    expect(stockCell(await page(id, b), VARIANTS[2])).toBe(stockBefore + 3);

    // Beyond what is left: refused on the page, nothing changed.
    const tooMuch = await postForm(third, `/admin/orders/${id}/refund`, { amount: "100000", confirm: "yes" }, b);
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("can still be refunded");

    // The packing slip: number, date, recipient, lines with SKU and quantities, no prices.
    const slip = await openPage(`/admin/orders/${id}/packing-slip`, b);
    expect(slip.res.status).toBe(200);
    expect(slip.html).toContain(`Packing slip ${order.label}`);
    expect(slip.html).toContain("<strong>Ada Lovelace</strong>");
    expect(slip.html).toContain("@media print");
    expect(slip.html).toContain("<td>MCB-NVY-M</td>");
    expect(slip.html).not.toContain(`<td>${lines[2].item.title}</td>`);
    const main = slip.html.slice(slip.html.indexOf('<article class="slip"'));
    expect(main).not.toMatch(/\$\d/);
  });

  it("a refund by amount only, and bad unit counts are named on the page", async () => {
    const b = await signIn({ ip: "198.51.100.78" });
    const order = await placeThreeLines();
    const id = order.id as string;
    const html = await page(id, b);
    const bad = await postForm(
      html,
      `/admin/orders/${id}/refund`,
      { [`refund:${order.line_items[0].id}`]: "1.5", confirm: "yes" },
      b,
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("units must be a whole number");
    const none = await postForm(
      html,
      `/admin/orders/${id}/ship`,
      { [`ship:${order.line_items[0].id}`]: "0", confirm: "yes" },
      b,
    );
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("choose at least one unit to ship");
    const amount = await postForm(html, `/admin/orders/${id}/refund`, { amount: "2.50", confirm: "yes" }, b);
    expect(amount.status).toBe(303);
    const after = await getOrder(id);
    expect(after.adjustments.at(-1)).toMatchObject({ type: "refund", totals: [{ type: "total", amount: -250 }] });
    expect(after.adjustments.at(-1).line_items).toBeUndefined();
  });
});
