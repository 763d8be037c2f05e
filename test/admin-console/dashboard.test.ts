/**
 * The dashboard (issue 13 item 5): the figures drawn from the order index's stats, each chart
 * an accessible SVG image with the same numbers in a table, product data escaped.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type DashboardStats, emptyStats, windows } from "../../src/admin/console/dashboard-data";
import { dashboardPage } from "../../src/admin/console/dashboard-page";
import type { ConsoleContext } from "../../src/admin/console/types";
import { merchantConfig } from "../../src/config";
import { openPage, signIn } from "../helpers/console";
import { placeOrder } from "../order/order-helpers";

const NOW = Date.parse("2026-11-24T15:00:00Z");
const DAY = 86_400_000;

function context(): ConsoleContext {
  const url = new URL("https://shop.example.com/admin/");
  return {
    request: new Request(url),
    url,
    env,
    config: merchantConfig(env),
    now: NOW,
    nonce: "test-nonce",
    csrfToken: "test-csrf",
    principal: { via: "session", sessionId: "s1" },
  };
}

/** 30 days: one order a day for 10 days (1000 each), 4 today (2500 each). */
function stats(): DashboardStats {
  const base = emptyStats(NOW);
  const per_day = base.per_day.map((d, i) =>
    i === 29 ? { ...d, orders: 4, revenue: 10_000 } : i >= 20 ? { ...d, orders: 1, revenue: 1000 } : d,
  );
  return {
    ...base,
    per_day,
    by_status: { processing: 5, shipped: 7, canceled: 1, delivered: 0 },
    top_products: [
      { item_id: "item_1", title: "Blue <script>alert(1)</script> mug", quantity: 9, amount: 9000 },
      { item_id: "item_2", title: "Tea", quantity: 3, amount: 1500 },
    ],
    webhook_failures: {
      orders: 1,
      attempts: 3,
      recent: [
        {
          id: "ord_failing",
          created_at: NOW - DAY,
          platform: "https://agent.test/profile.json",
          webhook_failures: 3,
          last_webhook_failure_at: NOW - 3600_000,
        },
      ],
    },
  };
}

describe("dashboard", () => {
  it("today, 7 and 30 days are sums of the last 1, 7 and 30 UTC days", () => {
    const s = stats();
    expect(s.per_day).toHaveLength(30);
    expect(s.per_day.at(-1)?.day).toBe("2026-11-24");
    expect(windows(s)).toEqual([
      { label: "Today", orders: 4, revenue: 10_000 },
      { label: "Last 7 days", orders: 10, revenue: 16_000 },
      { label: "Last 30 days", orders: 13, revenue: 19_000 },
    ]);
  });

  it("draws each figure as an SVG image with a title and the numbers in a table", async () => {
    const res = await dashboardPage(context(), { stats: async () => stats() });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    for (const id of ["chart-orders", "chart-revenue", "chart-status", "chart-products"]) {
      expect(html).toMatch(new RegExp(`<svg class="chart" id="${id}" role="img" aria-labelledby="${id}-title"`));
      expect(html).toMatch(new RegExp(`<title id="${id}-title">[^<]+</title>`));
    }
    expect(html).toContain("Orders per day from 2026-10-26 to 2026-11-24: 13 in all");
    // The windows, in money formatted for the store.
    expect(html).toContain("<dt>Today: orders</dt><dd>4</dd><dt>Revenue</dt><dd>$100.00</dd>");
    expect(html).toContain("<dt>Last 30 days: orders</dt><dd>13</dd><dt>Revenue</dt><dd>$190.00</dd>");
    // Per-day table, statuses (zero counts left out, largest first), products, webhook failures.
    expect(html).toContain('<tr><td>2026-11-24</td><td class="num">4</td><td class="num">$100.00</td></tr>');
    const statusRows = [...html.matchAll(/<a href="\/admin\/orders\?status=(\w+)">/g)].map((m) => m[1]);
    expect(statusRows).toEqual(["shipped", "processing", "canceled"]);
    expect(html).toContain('<td class="num">9</td><td class="num">$90.00</td>');
    expect(html).toContain("3 failed deliveries to platforms, on 1 order.");
    expect(html).toContain('<a href="/admin/orders/ord_failing">ord_failing</a>');
    // Product titles are data: escaped, never markup.
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("Blue &lt;script&gt;alert(1)&lt;/script&gt; mug");
  });

  it("an empty store says so; an index that fails shows a notice instead of an error", async () => {
    const empty = await (await dashboardPage(context(), { stats: async (now) => emptyStats(now) })).text();
    expect(empty).toContain("No orders yet.");
    expect(empty).toContain("Nothing sold in the last 30 days.");
    const down = await dashboardPage(context(), { stats: () => Promise.reject(new Error("index unavailable")) });
    expect(down.status).toBe(200);
    expect(await down.text()).toContain("The order index did not answer");
  });

  it("is the console's home page, and counts an order placed through the tools today", async () => {
    const browser = await signIn({ ip: "198.51.100.77" });
    const today = async () => {
      const { res, html } = await openPage("/admin/", browser);
      expect(res.status).toBe(200);
      expect(html).toContain('<a href="/admin/" aria-current="page">Dashboard</a>');
      return Number(/<dt>Today: orders<\/dt><dd>(\d+)<\/dd>/.exec(html)?.[1]);
    };
    const before = await today();
    await placeOrder([{ id: "item_123", quantity: 2 }]);
    expect(await today()).toBe(before + 1);
  });
});
