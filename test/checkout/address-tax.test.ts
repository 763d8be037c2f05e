/**
 * Issue 10 finding 8: tax and shipping follow the place, not its spelling. Before, region
 * "California" paid 0% instead of 7.25%, "British Columbia" 5% instead of 12%, and "Germany"
 * or "DEU" no VAT, each checkout ready to complete.
 */
import { describe, expect, it } from "vitest";
import { ADDRESS, type Json, readyCheckout } from "../helpers/checkout";

async function pricedAt(address: Record<string, string>): Promise<Json> {
  return readyCheckout([{ id: "item_123", quantity: 2 }], {
    fulfillment: { methods: [{ type: "shipping", destinations: [{ ...ADDRESS, ...address }] }] },
  });
}

const taxes = (checkout: Json) =>
  checkout.totals.filter((t: Json) => t.type === "tax").map((t: Json) => [t.display_text, t.amount]);
const subtotal = (checkout: Json) => checkout.totals.find((t: Json) => t.type === "subtotal").amount;

describe("addresses are normalized before pricing", () => {
  it.each([
    [{ address_country: "US", address_region: "California" }, { address_country: "US", address_region: "CA" }, 725],
    [{ address_country: "USA", address_region: "california" }, { address_country: "US", address_region: "CA" }, 725],
    [
      { address_country: "United States", address_region: "US-CA" },
      { address_country: "US", address_region: "CA" },
      725,
    ],
    [
      { address_country: "Canada", address_region: "British Columbia" },
      { address_country: "CA", address_region: "BC" },
      1200,
    ],
    [{ address_country: "CAN", address_region: "Québec" }, { address_country: "CA", address_region: "QC" }, 500],
    [{ address_country: "Germany", address_region: "Bayern" }, { address_country: "DE", address_region: "BY" }, 1900],
    [{ address_country: "DEU", address_region: "" }, { address_country: "DE", address_region: "" }, 1900],
    [{ address_country: "de", address_region: "" }, { address_country: "DE", address_region: "" }, 1900],
  ])("%o prices as %o", async (spelled, coded, bps) => {
    const [a, b] = await Promise.all([pricedAt(spelled), pricedAt(coded)]);
    expect(a.status, JSON.stringify(a.messages)).toBe("ready_for_complete");
    expect(taxes(a)).toEqual(taxes(b));
    expect(a.totals).toEqual(b.totals);
    const total = taxes(a).reduce((sum: number, [, amount]: [string, number]) => sum + amount, 0);
    // Each rate rounds on its own, so a two-rate region may be a unit off the combined rate.
    expect(Math.abs(total - Math.round((subtotal(a) * bps) / 10_000))).toBeLessThanOrEqual(1);
    expect(total).toBeGreaterThan(0);
  });

  it("an unknown country is a message on the checkout, never a silent zero tax", async () => {
    const checkout = await pricedAt({ address_country: "Narnia", address_region: "" });
    expect(checkout.status).toBe("incomplete");
    expect(checkout.messages).toContainEqual(
      expect.objectContaining({
        type: "error",
        path: "$.fulfillment.methods[0].destinations[0].address_country",
        content: expect.stringContaining("Narnia"),
      }),
    );
  });

  it("a region the store taxes by region that cannot be resolved is a message, not 0%", async () => {
    const unknown = await pricedAt({ address_country: "US", address_region: "Atlantis" });
    expect(unknown.status).toBe("incomplete");
    expect(unknown.messages).toContainEqual(
      expect.objectContaining({
        type: "error",
        path: "$.fulfillment.methods[0].destinations[0].address_region",
        content: expect.stringContaining("Atlantis"),
      }),
    );
    const missing = await pricedAt({ address_country: "Canada", address_region: "" });
    expect(missing.status).toBe("incomplete");
    expect(missing.messages.map((m: Json) => m.path)).toContain(
      "$.fulfillment.methods[0].destinations[0].address_region",
    );
  });

  it("a state the store does not tax prices no tax and stays ready", async () => {
    const texas = await pricedAt({ address_country: "US", address_region: "Texas" });
    expect(texas.status).toBe("ready_for_complete");
    expect(taxes(texas)).toEqual([]);
  });
});
