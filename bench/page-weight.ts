/**
 * What each buyer page weighs as the local store serves it (`npm start`: the demo catalog,
 * test mode), reached the way a buyer reaches it:
 *   node scripts/run.mjs bench/page-weight.ts [port]
 * GETs `/`, the first product page the storefront links, adds its first variant to a cart
 * (the product page's own form), checks out (the cart page's form), and opens the order
 * page of an order an agent places. Per page: HTML bytes raw and gzip (level 6, what a CDN
 * typically sends), and the requests the page makes after the HTML: images only, since
 * the pages inline their one stylesheet and ship no script files.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { connectAgent } from "../test/browser/agent";
import { placeOrder, readyCheckout } from "../test/browser/sessions";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.argv[2] ?? 9700);

interface Weight {
  readonly page: string;
  readonly path: string;
  readonly status: number;
  readonly raw: number;
  readonly gzip: number;
  readonly images: number;
  readonly otherRequests: number;
}

const server = await startStore(port);
let cookie = "";
try {
  const base = server.baseUrl;
  const weights: Weight[] = [];

  async function load(page: string, path: string): Promise<string> {
    const res = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
    keepCookies(res);
    const html = await res.text();
    weights.push({ page, path: shorten(path), status: res.status, ...weigh(html) });
    return html;
  }

  async function post(path: string, fields: Record<string, string>): Promise<string> {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base, cookie },
      body: new URLSearchParams(fields),
    });
    keepCookies(res);
    const location = res.headers.get("location");
    if (res.status !== 303 || !location) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return new URL(location, base).pathname;
  }

  const front = await load("Storefront", "/");
  const productPath = new URL(match(front, /<h3><a href="([^"]+)">/), base).pathname;
  const product = await load("Product", productPath);
  const cartPath = await post("/cart", {
    _csrf: hidden(product, "_csrf"),
    key: hidden(product, "key"),
    product: hidden(product, "product"),
    variant: match(product, /<option value="([^"]+)"(?: selected)?>/),
    quantity: "1",
  });
  const cart = await load("Cart", cartPath);
  const checkoutPath = await post(cartPath, {
    _csrf: hidden(cart, "_csrf"),
    key: hidden(cart, "key"),
    action: "checkout",
  });
  await load("Checkout", checkoutPath);

  const agent = await connectAgent(base);
  try {
    const done = await placeOrder(agent, await readyCheckout(agent));
    await load("Order", new URL(done.order.permalink_url).pathname);
  } finally {
    await agent.close();
  }
  await load("Payment handler spec", "/ucp/payment/test");

  console.log("| page | status | HTML raw | HTML gzip | image requests | other requests |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const w of weights) {
    console.log(
      `| ${w.page} (\`${w.path}\`) | ${w.status} | ${w.raw} B | ${w.gzip} B | ${w.images} | ${w.otherRequests} |`,
    );
  }
} finally {
  await server.stop();
}

/**
 * `npm start` on a fresh state directory, in its own process group (node → wrangler →
 * workerd), ready once discovery answers. (test/e2e/server.ts does the same for the tests;
 * it finds the project from its own folder, which scripts/run.mjs's bundling moves.)
 */
async function startStore(port: number) {
  const state = mkdtempSync(path.join(tmpdir(), "ucp-page-weight-"));
  const child = spawn(
    process.execPath,
    ["scripts/run.mjs", "scripts/start.ts", "--ip", "127.0.0.1", "--persist-to", state],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, PORT: String(port), WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  const group = child.pid as number;
  const stop = async () => {
    try {
      process.kill(-group, "SIGTERM");
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(state, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/.well-known/ucp`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error("the local store did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { baseUrl, stop };
}

function weigh(html: string): Pick<Weight, "raw" | "gzip" | "images" | "otherRequests"> {
  const bytes = Buffer.from(html);
  const images = new Set([...html.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]));
  const other = [...html.matchAll(/<(?:script|link|iframe)\b[^>]*\b(?:src|href)="[^"]+"/g)].length;
  return { raw: bytes.byteLength, gzip: gzipSync(bytes).byteLength, images: images.size, otherRequests: other };
}

function keepCookies(res: Response): void {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf("=")), p] as const),
  );
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? "";
    jar.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  cookie = [...jar.values()].join("; ");
}

function match(html: string, pattern: RegExp): string {
  const found = pattern.exec(html)?.[1];
  if (found === undefined) throw new Error(`not found: ${pattern}`);
  return found.replaceAll("&amp;", "&");
}

function hidden(html: string, name: string): string {
  return match(html, new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`));
}

/** Hand-off tokens are long and say nothing: `/cart/…`. */
function shorten(path: string): string {
  return path.replace(/^\/(cart|checkout|orders)\/.+$/, "/$1/<token>");
}
