/** `/orders/<token>`: get_order for the buyer the permalink names; nothing without its token. */
import { describe, expect, it } from "vitest";
import { getPage, pathOf } from "../helpers/pages";
import { admin, getOrder, placeOrder } from "../order/order-helpers";

// Page budgets are per client address: this file is its own client, as on the internet.
const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

describe("order page", () => {
  it("shows the order at its permalink_url: number, status, items, totals, shipping address", async () => {
    const { orderId } = await placeOrder([{ id: "var_abc123_blue_10", quantity: 2 }]);
    const order = await getOrder(orderId);
    const { res, html } = await getPage(pathOf(order.permalink_url), { ip: IP });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(html).toContain("<h1>Your order</h1>");
    expect(html).toContain(`<strong>${order.label}</strong>`);
    expect(html).toContain('<span class="status">Confirmed, preparing to ship</span>');
    expect(html).toContain("Runner Pro - Blue / Size 10");
    expect(html).toContain("0 of 2 shipped");
    const total = order.totals.find((t: { type: string }) => t.type === "total").amount;
    expect(html).toContain(`<tr class="total"><td>Total</td><td class="num">$${(total / 100).toFixed(2)}</td></tr>`);
    expect(html).toContain("123 Main St<br>Springfield IL 62701<br>US");
    expect(html).toContain("Nothing has shipped yet.");
  });

  it("shows a shipment the merchant records, with its carrier and tracking link; then a refund", async () => {
    const { orderId } = await placeOrder([{ id: "var_abc123_blue_10", quantity: 1 }]);
    const shipped = await admin(orderId, "events", {
      type: "shipped",
      carrier: "UPS",
      tracking_number: "1Z999",
      tracking_url: "https://www.ups.com/track?tracknum=1Z999&loc=en_US",
      description: "Left the <warehouse>",
    });
    expect(shipped.status).toBe(200);
    const order = await getOrder(orderId);
    const { html } = await getPage(pathOf(order.permalink_url), { ip: IP });
    expect(html).toContain('<span class="status">Shipped</span>');
    expect(html).toContain("<strong>Shipped</strong>");
    expect(html).toContain("Carrier: UPS");
    expect(html).toContain(
      '<a href="https://www.ups.com/track?tracknum=1Z999&amp;loc=en_US" rel="noreferrer noopener" target="_blank">1Z999',
    );
    expect(html).toContain("Left the &lt;warehouse&gt;");
    expect(html).toContain("1 of 1 shipped");

    const refund = await admin(
      orderId,
      "adjustments",
      { type: "refund", amount: 1000, description: "Scuffed box" },
      { key: crypto.randomUUID() },
    );
    expect(refund.status).toBe(200);
    const after = await getPage(pathOf(order.permalink_url), { ip: IP });
    expect(after.html).toContain("<h2>Refunds and changes</h2>");
    expect(after.html).toMatch(/<strong>Refund<\/strong> · <time datetime="[^"]+">[^<]+<\/time> · (Pending|Completed)/);
    expect(after.html).toContain("Back to you: $10.00");
    expect(after.html).toContain("Scuffed box");
  });

  it("a canceled order says so", async () => {
    const { orderId } = await placeOrder([{ id: "var_abc123_blue_10", quantity: 1 }]);
    expect((await admin(orderId, "adjustments", { type: "cancellation" }, { key: crypto.randomUUID() })).status).toBe(
      200,
    );
    const order = await getOrder(orderId);
    const { html } = await getPage(pathOf(order.permalink_url), { ip: IP });
    expect(html).toContain('<span class="status">Canceled</span>');
    expect(html).toContain("<strong>Cancellation</strong>");
  });

  it("a tampered token, or another kind of token, shows nothing of the order", async () => {
    const { orderId, checkout } = await placeOrder([{ id: "var_abc123_blue_10", quantity: 1 }]);
    const path = pathOf((await getOrder(orderId)).permalink_url);
    const token = path.split("/").pop() as string;
    const flipped = token.slice(0, 12) + (token[12] === "A" ? "B" : "A") + token.slice(13);
    const checkoutToken = pathOf(checkout.continue_url).split("/").pop() as string;
    for (const probe of [`/orders/${flipped}`, `/orders/${token}x`, `/orders/${checkoutToken}`, "/orders/abc"]) {
      const res = await getPage(probe, { ip: IP });
      expect(res.res.status, probe).toBe(404);
      expect(res.html, probe).not.toContain(orderId);
      expect(res.html, probe).not.toContain("Runner Pro");
      expect(res.html, probe).not.toContain("Main St");
    }
  });
});
