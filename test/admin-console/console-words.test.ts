/**
 * The console speaks to a merchant (issue 26 item 4): an order the store's own pages placed is
 * from the "Online store", not from the store's host; dates are in the store's locale and the
 * merchant's time zone (MERCHANT_TIME_ZONE), never raw ISO; the API's enum values are words.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dateTime, platformName, words } from "../../src/admin/console/orders-format";
import { buildConfig, type MerchantConfig, merchantConfig } from "../../src/config";
import { merchantVarProblems } from "../../src/merchant-vars";
import { callAsBuyer, storefrontProfile } from "../../src/pages/buyer-tools";
import type { PageContext } from "../../src/pages/context";
import { ADDRESS, pay } from "../helpers/checkout";
import { type Browser, ORIGIN, openPage, signIn } from "../helpers/console";
import { admin, placeOrder } from "../order/order-helpers";

const browser: Browser = { ip: "198.51.100.81" };

/** What the store's own pages do: call the tools as the storefront, through callAsBuyer. */
async function orderFromTheStoresPages(): Promise<string> {
  const config = merchantConfig(env);
  const request = new Request(`${ORIGIN}/checkout/x`);
  const ctx = {
    request,
    url: new URL(request.url),
    env,
    config,
    now: Date.now(),
    nonce: "n",
  } as unknown as PageContext;
  const created = await callAsBuyer(ctx, "create_checkout", {
    checkout: {
      line_items: [{ item: { id: "item_123" }, quantity: 1 }],
      buyer: { email: "walk-in@example.com" },
      fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
    },
  });
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  const id = created.value.id as string;
  const done = await callAsBuyer(
    ctx,
    "complete_checkout",
    { id, checkout: pay("success_token") },
    { handoff: true, idempotencyKey: crypto.randomUUID() },
  );
  if (!done.ok) throw new Error(JSON.stringify(done.error));
  expect(done.value.status).toBe("completed");
  return (done.value.order as { id: string }).id;
}

const withStore = (vars: Record<string, string>): Pick<{ config: MerchantConfig }, "config"> => ({
  config: buildConfig({ ...(env as unknown as Record<string, string>), ...vars }),
});

describe("the store's own channel", () => {
  it("an order from the store's pages says Online store, on its page and in the list; an agent's keeps its host", async () => {
    await signIn(browser);
    const ours = await orderFromTheStoresPages();
    const page = await openPage(`/admin/orders/${ours}`, browser);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Placed by <span");
    expect(page.html).toMatch(/Placed by <span title="https:\/\/shop\.example\.com\/">Online store<\/span>/);
    expect(page.html).not.toMatch(/>shop\.example\.com</);
    const list = await openPage(`/admin/orders?q=${ours}`, browser);
    expect(list.html).toContain("Online store");

    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const theirs = await openPage(`/admin/orders/${orderId}`, browser);
    expect(theirs.html).not.toContain("Online store");
    expect(theirs.html).toMatch(/Placed by <span title="https:\/\/[^"]+">[^<]+<\/span>/);
  }, 60_000);

  it("platformName names only the store's own origin so", () => {
    const store = withStore({});
    expect(String(platformName(store, storefrontProfile(store.config.origin)))).toContain(">Online store<");
    expect(String(platformName(store, "https://agent.example/profile.json"))).toContain(">agent.example<");
    expect(String(platformName(store, "https://shop.example.com/elsewhere.json"))).not.toContain("Online store");
  });
});

describe("dates in the merchant's locale and time zone", () => {
  const instant = Date.UTC(2026, 2, 5, 14, 5);

  it("default: the store's locale (en-US) in UTC, zone named, no ISO", () => {
    expect(dateTime(withStore({}), instant)).toBe("Mar 5, 2026, 2:05 PM UTC");
  });

  it("MERCHANT_TIME_ZONE and MERCHANT_LOCALE move the clock and the words", () => {
    const berlin = dateTime(withStore({ MERCHANT_TIME_ZONE: "Europe/Berlin", MERCHANT_LOCALE: "de-DE" }), instant);
    expect(berlin).toBe("5. März 2026, 15:05 MEZ");
    const ny = dateTime(withStore({ MERCHANT_TIME_ZONE: "America/New_York" }), instant);
    expect(ny).toBe("Mar 5, 2026, 9:05 AM EST");
  });

  it("a time zone that is not one is named before the store serves", () => {
    expect(merchantVarProblems({ MERCHANT_TIME_ZONE: "Mars/Olympus" })).toEqual([
      'MERCHANT_TIME_ZONE: expected an IANA time zone such as "Europe/Berlin", got "Mars/Olympus"',
    ]);
    expect(merchantVarProblems({ MERCHANT_TIME_ZONE: "Asia/Tokyo" })).toEqual([]);
  });

  it("console pages show no raw ISO time, only inside <time datetime>", async () => {
    await signIn(browser);
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    await admin(orderId, "events", { type: "shipped", carrier: "UPS", tracking_number: "1Z1" });
    await admin(orderId, "adjustments", { type: "refund", amount: 100 });
    for (const path of [`/admin/orders/${orderId}`, "/admin/orders", "/admin/", "/admin/platforms"]) {
      const { html } = await openPage(path, browser);
      const visible = html.replace(/<[^>]*>/g, " ");
      expect(visible, path).not.toMatch(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d/);
    }
    const { html } = await openPage(`/admin/orders/${orderId}`, browser);
    expect(html).toMatch(
      /<time datetime="\d{4}-\d\d-\d\dT[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M UTC<\/time>/,
    );
    expect(html).toContain("<strong>Shipped</strong>");
    expect(html).toContain("<strong>Refund</strong>");
    expect(html).not.toMatch(/<strong>(shipped|refund)<\/strong>/);
  }, 60_000);
});

describe("enum values as words", () => {
  it("names the known ones and spaces the rest", () => {
    expect(words("order.created")).toBe("Order placed");
    expect(words("partially_shipped")).toBe("Partially shipped");
    expect(words("in_transit")).toBe("In transit");
    expect(words("cancellation")).toBe("Canceled");
    expect(words("product_unacceptable")).toBe("Product unacceptable");
  });
});
