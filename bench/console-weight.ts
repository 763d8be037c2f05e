import { gzipSync } from "node:zlib";
import type { DashboardStats } from "../src/admin/console/dashboard-data";
import { dashboardBody } from "../src/admin/console/dashboard-page";
import { renderConsole } from "../src/admin/console/layout";
import type { ConsoleContext } from "../src/admin/console/types";
import { buildConfig } from "../src/config";
import { connectAgent } from "../test/browser/agent";
import { placeOrder, readyCheckout } from "../test/browser/sessions";
import { startLocalStore } from "./local-store";

// Node has no Worker bindings: the page's context only needs Env to exist as a type.
declare global {
  interface Env {}
}

const port = Number(process.argv[2] ?? 9905);
const ORDERS = 5;

function weigh(html: string) {
  const raw = Buffer.byteLength(html);
  const gzip = gzipSync(html, { level: 6 }).length;
  // Anything the browser would fetch after the HTML.
  const requests = (html.match(/<(img|script|link)\b[^>]*(src|href)=/g) ?? []).length;
  return { raw, gzip, requests };
}

const rows: string[] = [];
const server = await startLocalStore(port, "ucp-console-weight-");
try {
  const agent = await connectAgent(server.baseUrl);
  for (let i = 0; i < ORDERS; i++) await placeOrder(agent, await readyCheckout(agent));
  await agent.close();
  const signIn = await fetch(`${server.baseUrl}/admin/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams({ token: "dev-admin-token" }),
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}/admin/`, { headers: { cookie } });
  const html = await res.text();
  const ms = performance.now() - started;
  const w = weigh(html);
  rows.push(
    `| Served, ${ORDERS} orders (demo store) | ${res.status} | ${w.raw} B | ${w.gzip} B | ${w.requests} | ${ms.toFixed(0)} ms |`,
  );
} finally {
  await server.stop();
}

const now = Date.parse("2026-11-24T12:00:00Z");
const DAY = 86_400_000;
const since = (Math.floor(now / DAY) - 29) * DAY;
const full: DashboardStats = {
  since,
  per_day: Array.from({ length: 30 }, (_, i) => ({
    day: new Date(since + i * DAY).toISOString().slice(0, 10),
    orders: 3000 + i * 37,
    revenue: 123_456_78 + i * 98_765,
  })),
  by_status: { processing: 4100, partially_shipped: 320, shipped: 61_000, delivered: 33_000, canceled: 1500 },
  top_products: Array.from({ length: 10 }, (_, i) => ({
    item_id: `item_${i}`,
    title: `Featherlight Running Tee with a long product title number ${i} - Blue / XS`,
    quantity: 5000 - i * 300,
    amount: 99_999_00 - i * 1_000_00,
  })),
  webhook_failures: {
    orders: 20,
    attempts: 85,
    recent: Array.from({ length: 20 }, (_, i) => ({
      id: `ord_${"x".repeat(40)}${i}`,
      created_at: now - i * 3600_000,
      platform: "https://platform.example.com/profiles/shopping-agent.json",
      webhook_failures: 4,
      last_webhook_failure_at: now - i * 1800_000,
    })),
  },
};
const url = new URL("https://shop.example.com/admin/");
const ctx = {
  request: new Request(url),
  url,
  env: {} as Env,
  config: buildConfig({ MERCHANT_NAME: "Demo Outfitters", PAYMENT_TEST_MODE: "true", ID_SIGNING_KEY: "x" }),
  now,
  nonce: "n".repeat(22),
  csrfToken: "c".repeat(43),
  principal: { via: "session", sessionId: "s" },
} satisfies ConsoleContext;
const largest = await renderConsole(ctx, { title: "Dashboard", body: dashboardBody(ctx, full) }).text();
const w = weigh(largest);
rows.push(`| Largest (every list full), rendered in Node | 200 | ${w.raw} B | ${w.gzip} B | ${w.requests} | — |`);

console.log("| dashboard | status | HTML raw | HTML gzip | requests after the HTML | GET time (local) |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
