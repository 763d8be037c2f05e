import { gzipSync } from "node:zlib";
import { connectAgent } from "../test/browser/agent";
import { placeOrder, readyCheckout } from "../test/browser/sessions";
import { startLocalStore } from "./local-store";

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

const server = await startLocalStore(port, "ucp-page-weight-");
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
