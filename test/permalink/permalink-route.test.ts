/**
 * GET /buy/{items} (2026-08-25 dev.ucp.shopping.permalink): a link builds a cart through
 * create_cart and answers 303 to the cart's own page; it never checks out or places an
 * order, never answers UCP JSON, never echoes buyer values or credentials onto Location,
 * and every link it cannot read is a 4xx page in the store's look.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { openHandoff } from "../../src/lib/handoff-token";
import { toBase64Url } from "../../src/lib/ids";
import { callAsBuyer } from "../../src/pages/buyer-tools";
import { pageContext } from "../../src/pages/context";
import { TOOLS } from "../../src/tools";
import { ORIGIN } from "../helpers/pages";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

async function load(path: string, method = "GET"): Promise<Response> {
  const request = new Request(`${ORIGIN}${path}`, { method, redirect: "manual", headers: { "cf-connecting-ip": IP } });
  return worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env);
}

/** The cart a Location's /cart/<token> opens, as the buyer's page reads it. */
async function cartAt(location: string): Promise<Json> {
  const token = new URL(location).pathname.split("/").pop() as string;
  const opened = await openHandoff("test-signing-key", "cart", token, Date.now());
  if (!opened.ok) throw new Error(`${location} does not open a cart`);
  const ctx = await pageContext(new Request(`${ORIGIN}/`), env);
  const read = await callAsBuyer(ctx, "get_cart", { id: opened.id }, { handoff: true });
  if (!read.ok) throw new Error(JSON.stringify(read.error));
  return read.value;
}

function lines(cart: Json): Array<[string, number]> {
  return cart.line_items.map((l: Json) => [l.item.id, l.quantity]);
}

const tilde = (id: string) => `~${toBase64Url(new TextEncoder().encode(id))}`;

afterEach(() => vi.restoreAllMocks());

describe("a permalink with items", () => {
  it("builds a cart with those lines and quantities and answers 303 to the cart's page", async () => {
    const res = await load(`/buy/var_abc123_blue_10:2,${tilde("var_def456_black_10")}:1`);
    expect(res.status).toBe(303);
    const location = res.headers.get("location") as string;
    expect(location).toMatch(/^https:\/\/shop\.example\.com\/cart\/[A-Za-z0-9_-]+$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("content-type")).toBeNull();
    expect(await res.text()).toBe("");
    // The link's cart is the browser's cart from now on ("Add to cart" adds to it).
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("ucp_cart="));
    expect(cookie?.split(";")[0]).toBe(`ucp_cart=${location.split("/").pop()}`);
    expect(lines(await cartAt(location))).toEqual([
      ["var_abc123_blue_10", 2],
      ["var_def456_black_10", 1],
    ]);
    const page = await load(new URL(location).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Runner Pro - Blue / Size 10");
  });

  it("reads the raw and ~ forms of one identifier as one line, quantities added", async () => {
    const res = await load(`/buy/var_abc123_blue_10:1,${tilde("var_abc123_blue_10")}:2`);
    expect(res.status).toBe(303);
    expect(lines(await cartAt(res.headers.get("location") as string))).toEqual([["var_abc123_blue_10", 3]]);
  });

  it("applies buyer, context and discount fields; Location carries no buyer value or credential", async () => {
    const query = [
      "buyer/email=alice%40example.com",
      "/buyer/first_name=Alice",
      "context/postal_code=94105",
      "context/address_country=US",
      "discounts/codes/0=SAVE10",
      "attribution/utm_source=email",
      "utm_medium=sms",
      "color=black",
      "access_token=secret",
      "card_number=4242424242424242",
      "payment/instruments/0/credential/token=tok_visa",
      "totals/0/amount=1",
      "line_items/0/quantity=9",
      "buyer/unknown=foo",
    ].join("&");
    const res = await load(`/buy/var_abc123_blue_10:2?${query}`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") as string);
    expect(location.pathname).toMatch(/^\/cart\//);
    expect([...location.searchParams]).toEqual([
      ["utm_medium", "sms"],
      ["color", "black"],
      ["utm_source", "email"],
    ]);
    expect(location.href).not.toMatch(/alice|Alice|94105|secret|4242|tok_visa|SAVE10/);
    const cart = await cartAt(location.href);
    expect(lines(cart)).toEqual([["var_abc123_blue_10", 2]]);
    expect(cart.buyer).toEqual({ email: "alice@example.com", first_name: "Alice" });
    expect(cart.context).toMatchObject({ postal_code: "94105", address_country: "US" });
    expect(cart.discounts.codes).toEqual(["SAVE10"]);
    // Server-owned fields are not set from the URL: the catalog's price, not "1".
    expect(cart.totals.find((t: Json) => t.type === "subtotal").amount).toBe(24000);
  });

  it("never checks out, pays or places an order: create_cart is the only tool it runs", async () => {
    const get = vi.spyOn(TOOLS, "get");
    const res = await load(
      "/buy/var_abc123_blue_10:1?status=completed&order/id=ord_1&payment/instruments/0/handler_id=mock_payment_handler&continue_to=/checkout/x",
    );
    expect(res.status).toBe(303);
    expect(get.mock.calls.map(([name]) => name)).toEqual(["create_cart"]);
  });
});

describe("continue_to", () => {
  it("sends the browser to a same-origin path, re-encoded, with the cart still built", async () => {
    const res = await load("/buy/var_abc123_blue_10:1?continue_to=%2Fproducts%2F.%2Frunner-pro%3Fsize%3D10&ref=x");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://shop.example.com/products/runner-pro?size=10&ref=x");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("ucp_cart="))).toBe(true);
  });

  // As written in the link's query: decoded once, then validated.
  it.each([
    ["//evil.example/x"],
    ["%2F%2Fevil.example"],
    ["https://evil.example/"],
    ["/%5Cevil.example"],
    ["/a%20b"],
    ["/a%0d%0aSet-Cookie:x=1"],
    ["evil"],
    ["/redirect%3Fto%3Dhttps%3A%2F%2Fevil.example"],
    ["/buy/var_abc123_blue_10:5"],
    // `//` that appears only after dot segments are removed (or %2F / %5C are read).
    ["/.//evil.example"],
    ["/.//evil.example/x"],
    ["/a/..//evil.example"],
    ["/%2e//evil.example"],
    ["/%252e//evil.example"],
    ["%2F.%2F%2Fevil.example"],
    ["/.%2F%252F/evil.example"],
    ["/%255C%255Cevil.example"],
    ["/%5C%5Cevil.example"],
    ["/.%09//evil.example"],
    ["/.%0a//evil.example"],
    ["/%09/evil.example"],
  ])("falls back to the cart page for %s", async (value) => {
    const res = await load(`/buy/var_abc123_blue_10:1?continue_to=${value}`);
    expect(res.status).toBe(303);
    const location = res.headers.get("location") as string;
    expect(location).toMatch(/^https:\/\/shop\.example\.com\/cart\/[A-Za-z0-9_-]+$/);
  });

  it("without items: the preferred page, else the storefront; no cart", async () => {
    const get = vi.spyOn(TOOLS, "get");
    const to = await load("/buy?context/postal_code=94105&continue_to=/products/runner-pro");
    expect(to.status).toBe(303);
    expect(to.headers.get("location")).toBe("https://shop.example.com/products/runner-pro");
    const root = await load("/buy/?continue_to=//evil.example&utm_source=qr");
    expect(root.headers.get("location")).toBe("https://shop.example.com/?utm_source=qr");
    expect(root.headers.getSetCookie()).toEqual([]);
    expect(get).not.toHaveBeenCalled();
  });

  it.each([["/.//evil.example"], ["/a/..//evil.example"], ["/%252e//evil.example"], ["/.%2F%252F/evil.example"]])(
    "never leaves the store's origin: %s without items is the storefront",
    async (value) => {
      const res = await load(`/buy?continue_to=${value}`);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("https://shop.example.com/");
    },
  );
});

describe("HEAD", () => {
  it("answers what a GET would, with no cart built and no cookie set", async () => {
    const get = vi.spyOn(TOOLS, "get");
    const res = await load("/buy/var_abc123_blue_10:1?utm_source=qr", "HEAD");
    expect(res.status).toBe(303);
    // No cart exists to send the browser to: the storefront stands in for it.
    expect(res.headers.get("location")).toBe("https://shop.example.com/?utm_source=qr");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.text()).toBe("");
    const on = await load("/buy/var_abc123_blue_10:1?continue_to=/products/runner-pro", "HEAD");
    expect(on.status).toBe(303);
    expect(on.headers.get("location")).toBe("https://shop.example.com/products/runner-pro");
    expect(on.headers.getSetCookie()).toEqual([]);
    const empty = await load("/buy", "HEAD");
    expect(empty.status).toBe(303);
    expect(empty.headers.get("location")).toBe("https://shop.example.com/");
    expect(get).not.toHaveBeenCalled();
  });

  it("a link the store refuses is the same 4xx, without a body", async () => {
    const res = await load("/buy/var_abc123_blue_10:0", "HEAD");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("");
    expect((await load("/buy/a/b", "HEAD")).status).toBe(404);
  });
});

describe("a link the store refuses", () => {
  async function expectRefused(path: string, status: number, text: RegExp) {
    const get = vi.spyOn(TOOLS, "get");
    const res = await load(path);
    expect(res.status, path).toBe(status);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain("Demo Outfitters");
    expect(html).toMatch(text);
    expect(get).not.toHaveBeenCalled();
    get.mockRestore();
  }

  it("refuses a ~ token that is not canonical base64url", async () => {
    const canonical = tilde("var_abc123_blue_8");
    const last = canonical.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // The same bytes for a lenient decoder, but unused trailing bits set.
    const tweaked = `${canonical.slice(0, -1)}${alphabet[alphabet.indexOf(last) | 1]}`;
    expect(tweaked).not.toBe(canonical);
    await expectRefused(`/buy/${tweaked}:1`, 400, /not canonical base64url/);
    await expectRefused(`/buy/${canonical}=:1`, 400, /not canonical base64url/);
    await expectRefused(`/buy/${tilde("var\u0001x")}:1`, 400, /control characters/);
  });

  it("refuses pointers that collide after normalization, and two continue_to", async () => {
    await expectRefused("/buy/var_abc123_blue_10:1?buyer/email=a%40x.com&/buyer/email=b%40x.com", 400, /ambiguous/);
    await expectRefused("/buy/var_abc123_blue_10:1?buyer%2Femail=a&buyer/email=b", 400, /ambiguous/);
    await expectRefused("/buy/var_abc123_blue_10:1?continue_to=/a&continue_to=/b", 400, /ambiguous/);
    // The page names no field the link spelled: its text is the link author's, not the store's.
    const said = "buyer/Your%20account%20is%20locked";
    const res = await load(`/buy/var_abc123_blue_10:1?${said}=a&/${said}=b`);
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(/locked/);
  });

  it.each([
    ["/buy/var_abc123_blue_10:0", /no valid quantity/],
    ["/buy/var_abc123_blue_10:01", /no valid quantity/],
    ["/buy/var_abc123_blue_10", /no valid quantity/],
    ["/buy/var_abc123_blue_10:1000", /more than 999/],
    ["/buy/var%2Fx:1", /percent-encoded/],
    ["/buy/a:1,,b:1", /Item 2 of the link has no valid quantity/],
    ["/buy/a+b:1", /not a valid item token/],
    ["/buy/var_abc123_blue_10:1?x=%E0%A4%A", /not encoded correctly/],
    ["/buy/var_abc123_blue_10:1?note=a%00b", /control characters/],
    [`/buy/var_abc123_blue_10:1?${"p=1&".repeat(51)}`, /more than 50 parameters/],
  ])("%s is a 400 page", async (path, text) => {
    await expectRefused(path, 400, text);
  });

  it("a link too long is 414", async () => {
    await expectRefused(`/buy/var_abc123_blue_10:1?x=${"a".repeat(5000)}`, 414, /too long/);
  });

  it("nothing in the link can be bought: a 409 page, or the valid continue_to", async () => {
    const res = await load("/buy/var_abc123_green_9:1");
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("None of the items in this link can be bought");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("ucp_cart="))).toBe(false);
    const on = await load("/buy/var_abc123_green_9:1?continue_to=/products/runner-pro");
    expect(on.status).toBe(303);
    expect(on.headers.get("location")).toBe("https://shop.example.com/products/runner-pro");
  });

  it("the 409 page never shows what the link's item ids say", async () => {
    const text = "Your account is locked. Call 555-0100 to unlock it";
    const res = await load(`/buy/${tilde(text)}:1,${tilde("<b>x</b>")}:1`);
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("None of the items in this link can be bought");
    expect(html).not.toMatch(/locked|555-0100|&lt;b&gt;|<b>x/);
  });

  it("a link with some items not available builds the cart of the rest (a handled shopping error: still 303)", async () => {
    const res = await load("/buy/var_abc123_blue_10:1,var_abc123_green_9:1");
    expect(res.status).toBe(303);
    expect(lines(await cartAt(res.headers.get("location") as string))).toEqual([["var_abc123_blue_10", 1]]);
  });

  it("answers only GET (and HEAD): POST is 405", async () => {
    const res = await load("/buy/var_abc123_blue_10:1", "POST");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});
