/**
 * Fulfilling an order from the console in Chromium (issue 26 item 1, done-when): an agent places
 * an order of three lines for a named recipient; the merchant opens it, sees the recipient,
 * shipping method and payment, ships two of the three lines with a carrier and tracking number,
 * refunds the third line with restock (the page's stock figure goes up by its units; Refunded
 * and Net show the money) and opens the packing slip as the printer sees it (print media: the
 * console's chrome gone, no prices). Axe clean on the order page and the slip.
 */
import { expect, it } from "vitest";
import type { Json } from "./agent";
import { signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";

const LINES = [
  { id: "var_mcb_navy_m", quantity: 1 },
  { id: "var_srs_black_m", quantity: 2 },
  { id: "var_trt_blue_l", quantity: 2 },
];
const RECIPIENT = {
  first_name: "Ada",
  last_name: "Lovelace",
  phone_number: "+1 415 555 0199",
  street_address: "1 Market St",
  extended_address: "Suite 300",
  address_locality: "San Francisco",
  address_region: "CA",
  postal_code: "94105",
  address_country: "US",
};
const TRACKING = "1Z999AA10123456784";
const usd = (minor: number) => `$${(minor / 100).toFixed(2)}`;

describeBrowser("console: fulfil from the order page", () => {
  const h = useHarness();

  it("ships two of three lines with tracking, refunds the third with restock, prints the packing slip", async () => {
    const agent = await h.agent();
    const started = await agent.call("create_checkout", {
      checkout: {
        line_items: LINES.map((l) => ({ item: { id: l.id }, quantity: l.quantity })),
        buyer: { email: "ada@example.com", first_name: "Ada" },
        fulfillment: { methods: [{ type: "shipping", destinations: [RECIPIENT] }] },
      },
    });
    expect(started.status, JSON.stringify(started.messages)).toBe("ready_for_complete");
    const done = await agent.call("complete_checkout", {
      id: started.id,
      checkout: {
        payment: {
          instruments: [
            {
              id: "instr_1",
              handler_id: "mock_payment_handler",
              type: "card",
              selected: true,
              display: { brand: "visa", last_digits: "4242" },
              credential: { type: "token", token: "success_token" },
            },
          ],
        },
      },
    });
    await agent.close();
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    const { id, label } = done.order as { id: string; label: string };
    const total: number = done.totals.find((t: Json) => t.type === "total").amount;
    const third = done.line_items.find((l: Json) => l.item.id === LINES[2]?.id);
    const thirdTotal: number = third.totals.find((t: Json) => t.type === "total").amount;

    const page = await signedInPage(await h.desktop(), h.baseUrl);
    await page.goto(`${h.baseUrl}/admin/orders/${id}`);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain(label);
    const shipTo = page.getByRole("region", { name: "Ship to" });
    await expect(shipTo.textContent()).resolves.toMatch(/Ada Lovelace[\s\S]*Suite 300[\s\S]*\+1 415 555 0199/);
    await expect(shipTo.textContent()).resolves.toMatch(/Shipping method.*·/);
    await expect(page.getByRole("region", { name: "Payment" }).textContent()).resolves.toContain("Visa ending in 4242");
    const stockCell = page.locator(`td[data-stock="${LINES[2]?.id}"]`);
    const stockBefore = Number(await stockCell.textContent());
    expect(Number.isInteger(stockBefore)).toBe(true);

    // Ship the first two lines; the third stays.
    const ship = page.locator(`form[action="/admin/orders/${id}/ship"]`);
    await ship.getByLabel(`Units of ${third.item.title} to ship`).fill("0");
    await ship.getByLabel("Carrier").fill("UPS");
    await ship.getByLabel("Tracking number").fill(TRACKING);
    await ship.getByLabel("These units have left").check();
    await Promise.all([page.waitForURL(/\?done=ship$/), ship.getByRole("button", { name: "Ship" }).click()]);
    await expect(page.getByRole("status").textContent()).resolves.toContain("Shipment recorded.");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain("Partially shipped");
    await expect(page.getByRole("region", { name: "Timeline" }).textContent()).resolves.toContain(TRACKING);

    // Refund the third line by line, restocking it (ticked by default).
    const refund = page.locator(`form[action="/admin/orders/${id}/refund"]`);
    await refund.getByLabel(`Units of ${third.item.title} to refund`).fill(String(LINES[2]?.quantity));
    await expect(refund.getByLabel("Put the refunded units back in stock").isChecked()).resolves.toBe(true);
    await refund.getByLabel("Send this money back to the buyer").check();
    await Promise.all([page.waitForURL(/\?done=refund$/), refund.getByRole("button", { name: "Refund" }).click()]);
    await expect(page.getByRole("status").textContent()).resolves.toContain("Refund recorded.");
    await expect(stockCell.textContent()).resolves.toBe(String(stockBefore + (LINES[2]?.quantity ?? 0)));
    await expect(page.locator('td[data-total="refunded"]').textContent()).resolves.toBe(`-${usd(thirdTotal)}`);
    await expect(page.locator('td[data-total="net"]').textContent()).resolves.toBe(usd(total - thirdTotal));
    // Everything left has shipped: no Ship, no Cancel; Mark delivered is offered.
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toMatch(/Shipped$/);
    await expect(page.locator(`form[action="/admin/orders/${id}/ship"]`).count()).resolves.toBe(0);
    await expect(page.locator(`form[action="/admin/orders/${id}/cancel"]`).count()).resolves.toBe(0);
    await expect(page.locator(`form[action="/admin/orders/${id}/deliver"]`).count()).resolves.toBe(1);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "console-order-fulfil");

    // The packing slip, as printed.
    await Promise.all([page.waitForURL(/\/packing-slip$/), page.getByRole("link", { name: "Packing slip" }).click()]);
    await expectNoSeriousAxeViolations(page);
    await expect(page.getByRole("button", { name: "Print" }).isVisible()).resolves.toBe(true);
    await page.emulateMedia({ media: "print" });
    await expect(page.locator("header.console").isVisible()).resolves.toBe(false);
    await expect(page.getByRole("button", { name: "Print" }).isVisible()).resolves.toBe(false);
    const slip = page.locator("article.slip");
    const text = (await slip.textContent()) ?? "";
    expect(text).toContain(`Packing slip ${label}`);
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("MCB-NVY-M");
    expect(text).toContain("SRS-BLK-M");
    expect(text).not.toContain(third.item.title);
    expect(text).not.toMatch(/\$\d/);
    await screenshot(page, "console-packing-slip");
    await page.emulateMedia({ media: "screen" });
  });
});
