/**
 * Add to cart, the cart page and "Check out": the agent's cart and checkout tools run for
 * the buyer, the cart reachable by its hand-off token (and the browser's ucp_cart cookie) only.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openHandoff } from "../../src/lib/handoff-token";
import { callAsBuyer } from "../../src/pages/buyer-tools";
import { pageContext } from "../../src/pages/context";
import { tool } from "../helpers/checkout";
import { type Browser, cookieValue, getPage, locationPath, ORIGIN, submit } from "../helpers/pages";

// Page budgets are per client address: this file is its own client, as on the internet.
const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

const SECRET = "test-signing-key";

async function idOf(kind: "cart" | "checkout", path: string): Promise<string> {
  const opened = await openHandoff(SECRET, kind, path.split("/").pop() as string, Date.now());
  if (!opened.ok) throw new Error(`${path} does not open: ${opened.reason}`);
  return opened.id;
}

/** Loads the product page and submits its Add to cart form. */
async function addToCart(browser: Browser, handle: string, variant: string, quantity = 1) {
  const { html } = await getPage(`/products/${handle}`, browser);
  const form = (html.match(/<form class="card" method="post" action="\/cart">[\s\S]*?<\/form>/) ?? [])[0] as string;
  expect(form).toBeDefined();
  return { res: await submit("/cart", form, { variant, quantity: String(quantity) }, browser), form };
}

/** The cart page's form that holds the button `action=value`. */
function cartForm(html: string, value: string): string {
  const form = (html.match(/<form\b[\s\S]*?<\/form>/g) ?? []).find((f) => f.includes(`name="action" value="${value}"`));
  expect(form, value).toBeDefined();
  return form as string;
}

/** The buyer's own read of a checkout, as the checkout page makes it (hand-off). */
async function buyerCheckout(id: string): Promise<Json> {
  const ctx = await pageContext(new Request(`${ORIGIN}/`), env);
  const read = await callAsBuyer(ctx, "get_checkout", { id }, { handoff: true });
  if (!read.ok) throw new Error(JSON.stringify(read.error));
  return read.value;
}

describe("add to cart", () => {
  it("creates a cart the buyer's page shows and no agent can see; the next add goes to the same cart", async () => {
    const browser: Browser = { ip: IP };
    const { res } = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 2);
    expect(res.status).toBe(303);
    const cartPath = locationPath(res);
    expect(cartPath).toMatch(/^\/cart\/[A-Za-z0-9_-]+$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("ucp_cart="));
    expect(cookie).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(cookieValue(browser, "ucp_cart")).toBe(cartPath.split("/").pop());

    const page = await getPage(cartPath, browser);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("cache-control")).toBe("no-store");
    expect(page.html).toContain("Runner Pro - Blue / Size 10");
    expect(page.html).toMatch(/name="qty\.[^"]+" value="2"/);
    expect(page.html).toContain("$240.00");
    expect(page.html).toContain("https://images.demo-outfitters.example/runner-pro.jpg");

    // The cart belongs to the store's own pages: an agent holding its id gets not_found.
    const id = await idOf("cart", cartPath);
    const agent = await tool("get_cart", { id });
    expect(agent.body.result.structuredContent.messages[0].code).toBe("not_found");

    const second = await addToCart(browser, "trail-master-x", "var_def456_black_10", 1);
    expect(second.res.status).toBe(303);
    expect(locationPath(second.res)).toBe(cartPath);
    const again = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 1);
    expect(locationPath(again.res)).toBe(cartPath);
    const after = await getPage(cartPath, browser);
    expect(after.html).toMatch(/name="qty\.[^"]+" value="3"/);
    expect(after.html).toContain("Trail Master X");
  });

  it("a form sent twice adds once", async () => {
    const browser: Browser = { ip: IP };
    const first = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 1);
    const cartPath = locationPath(first.res);
    const resent = await submit("/cart", first.form, { variant: "var_abc123_blue_10", quantity: "1" }, browser);
    expect(resent.status).toBe(303);
    expect(locationPath(resent)).toBe(cartPath);
    const add = await addToCart(browser, "trail-master-x", "var_def456_black_10", 1);
    const resentUpdate = await submit("/cart", add.form, { variant: "var_def456_black_10", quantity: "1" }, browser);
    expect(locationPath(resentUpdate)).toBe(cartPath);
    const { html } = await getPage(cartPath, browser);
    expect([...html.matchAll(/name="qty\.[^"]+" value="(\d+)"/g)].map((m) => m[1])).toEqual(["1", "1"]);
  });

  it("an out-of-stock variant goes back to the product page with the message; no cart is made", async () => {
    const browser: Browser = { ip: IP };
    const { res } = await addToCart(browser, "runner-pro", "var_abc123_green_9", 1);
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("<h1>Runner Pro</h1>");
    expect(html).toMatch(/<div id="add-error" class="notice error" role="alert"><p>[^<]*out of stock<\/p><\/div>/);
    expect(html).toContain('aria-describedby="add-error"');
    expect(cookieValue(browser, "ucp_cart")).toBeUndefined();
  });

  it("refuses a variant of another product, a bad quantity, and a form without its CSRF token", async () => {
    const browser: Browser = { ip: IP };
    const { html } = await getPage("/products/runner-pro", browser);
    const form = (html.match(/<form class="card" method="post" action="\/cart">[\s\S]*?<\/form>/) ?? [])[0] as string;
    const foreign = await submit("/cart", form, { variant: "var_def456_black_10", quantity: "1" }, browser);
    expect(foreign.status).toBe(422);
    const zero = await submit("/cart", form, { variant: "var_abc123_blue_10", quantity: "0" }, browser);
    expect(zero.status).toBe(422);
    expect(await zero.text()).toContain("Enter a quantity from 1 to 999.");
    const forged = await submit("/cart", form, { variant: "var_abc123_blue_10", quantity: "1", _csrf: "x" }, browser);
    expect(forged.status).toBe(403);
    const crossSite = await submit("/cart", form, { variant: "var_abc123_blue_10", quantity: "1" }, browser, {
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("cart page", () => {
  it("updates quantities (0 removes) through update_cart", async () => {
    const browser: Browser = { ip: IP };
    const first = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 1);
    await addToCart(browser, "trail-master-x", "var_def456_black_10", 1);
    const cartPath = locationPath(first.res);
    const { html } = await getPage(cartPath, browser);
    const names = [...html.matchAll(/name="(qty\.[^"]+)" value="\d+"/g)].map((m) => m[1] as string);
    expect(names).toHaveLength(2);
    const res = await submit(
      cartPath,
      cartForm(html, "update"),
      { action: "update", [names[0] as string]: "4", [names[1] as string]: "0" },
      browser,
    );
    expect(res.status).toBe(303);
    expect(locationPath(res)).toBe(cartPath);
    const after = await getPage(cartPath, browser);
    expect(after.html).toMatch(/name="qty\.[^"]+" value="4"/);
    expect(after.html).not.toContain("Trail Master X");
    const bad = await submit(
      cartPath,
      cartForm(after.html, "update"),
      { action: "update", [names[0] as string]: "-1" },
      browser,
    );
    expect(bad.status).toBe(422);
  });

  it("checks out into the cart's one checkout: the checkout page at its continue_url, whose get_checkout holds the cart's items", async () => {
    const browser: Browser = { ip: IP };
    const added = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 2);
    const cartPath = locationPath(added.res);
    const { html } = await getPage(cartPath, browser);
    const res = await submit(cartPath, cartForm(html, "checkout"), { action: "checkout" }, browser);
    expect(res.status).toBe(303);
    const checkoutPath = locationPath(res);
    expect(checkoutPath).toMatch(/^\/checkout\/[A-Za-z0-9_-]+$/);
    const checkout = await buyerCheckout(await idOf("checkout", checkoutPath));
    expect(checkout.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([["var_abc123_blue_10", 2]]);
    const landed = await getPage(checkoutPath, browser);
    expect(landed.res.status).toBe(200);
    expect(landed.html).toContain("Runner Pro - Blue / Size 10");
    // Checking out again is the same checkout, not a second one.
    const reload = await getPage(cartPath, browser);
    const twice = await submit(cartPath, cartForm(reload.html, "checkout"), { action: "checkout" }, browser);
    expect(locationPath(twice)).toBe(checkoutPath);
  });

  it("an agent's cart checked out by the buyer is the cart's one checkout: the agent's create_checkout returns it", async () => {
    const created = await tool("create_cart", {
      cart: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }] },
    });
    const cart = created.body.result.structuredContent;
    const path = new URL(cart.continue_url).pathname;
    const browser: Browser = { ip: IP };
    const { html } = await getPage(path, browser);
    const res = await submit(path, cartForm(html, "checkout"), { action: "checkout" }, browser);
    expect(res.status).toBe(303);
    const buyers = await idOf("checkout", locationPath(res));
    const agents = (await tool("create_checkout", { checkout: { cart_id: cart.id } })).body.result.structuredContent;
    expect(agents.id).toBe(buyers);
    // It stays the agent's: its platform reads it as before.
    const read = (await tool("get_checkout", { id: buyers })).body.result.structuredContent;
    expect(read.id).toBe(buyers);
  });

  it("an agent's cart opens by its continue_url; canceled, it says so; a tampered token shows nothing", async () => {
    const created = await tool("create_cart", {
      cart: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }] },
    });
    const cart = created.body.result.structuredContent;
    const path = new URL(cart.continue_url).pathname;
    const shown = await getPage(path, { ip: IP });
    expect(shown.res.status).toBe(200);
    expect(shown.html).toContain("Runner Pro - Blue / Size 10");
    const token = path.split("/").pop() as string;
    const tampered = await getPage(`/cart/${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`, { ip: IP });
    expect(tampered.res.status).toBe(404);
    expect(tampered.html).not.toContain("Runner Pro");
    await tool("cancel_cart", { id: cart.id }, crypto.randomUUID());
    const canceled = await getPage(path, { ip: IP });
    expect(canceled.res.status).toBe(410);
    expect(canceled.html).toContain("This cart is no longer available");
    expect(canceled.html).not.toContain("Runner Pro");
  });
});
