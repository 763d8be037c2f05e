/**
 * The header's cart link on the checkout page reached from the cart (issue 25 item 3: "a cart
 * link in the header of every page"): the buyer adds to cart, presses Check out, and the
 * checkout's header still names their cart with its count, also on the page a submit of the
 * checkout's form answers with (Continue, Apply: the page itself, not a redirect).
 */
import { describe, expect, it } from "vitest";
import { pressCheckout } from "../helpers/checkout-form";
import { type Browser, getPage, locationPath, submit } from "../helpers/pages";

const octet = () => Math.floor(Math.random() * 254) + 1;

async function addToCart(browser: Browser, handle: string, variant: string, quantity: number): Promise<string> {
  const { html } = await getPage(`/products/${handle}`, browser);
  const form = (html.match(/<form class="card" method="post" action="\/cart">[\s\S]*?<\/form>/) ?? [])[0] as string;
  const res = await submit("/cart", form, { variant, quantity: String(quantity) }, browser);
  expect(res.status).toBe(303);
  return locationPath(res);
}

function headerCartLink(html: string): string {
  return /<nav aria-label="[^"]*"><a href="\/">[^<]*<\/a> (<a [\s\S]*?<\/a>)<\/nav>/.exec(html)?.[1] ?? "";
}

describe("the header's cart link on the checkout page", () => {
  it("Check out from the cart: the checkout's header links to that cart with its count", async () => {
    const browser: Browser = { ip: `10.${octet()}.${octet()}.${octet()}` };
    const cartPath = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 2);
    const cart = await getPage(cartPath, browser);
    expect(headerCartLink(cart.html)).toContain('<span class="count" aria-hidden="true">2</span>');
    const checkoutForm = (cart.html.match(/<form\b[\s\S]*?<\/form>/g) ?? []).find((f) =>
      f.includes('name="action" value="checkout"'),
    );
    expect(checkoutForm).toBeDefined();
    const res = await submit(cartPath, checkoutForm as string, { action: "checkout" }, browser);
    expect(res.status).toBe(303);
    const checkout = await getPage(locationPath(res), browser);
    expect(checkout.res.status).toBe(200);
    expect(headerCartLink(checkout.html)).toBe(
      `<a href="${cartPath}" aria-label="Cart, 2 items">Cart <span class="count" aria-hidden="true">2</span></a>`,
    );

    // Continue with the email typed: the store answers with the page, its header as before.
    const checkoutPath = locationPath(res);
    const pressed = await pressCheckout(
      checkoutPath,
      checkout.html,
      "continue",
      { "contact-email": "robin@example.com" },
      browser,
    );
    expect(pressed.status).toBe(422);
    const answered = await pressed.text();
    expect(answered).toContain('value="robin@example.com"');
    expect(headerCartLink(answered)).toBe(headerCartLink(checkout.html));
    const applied = await pressCheckout(checkoutPath, answered, "apply", { code: "SAVE10" }, browser);
    expect(applied.status).toBe(200);
    expect(headerCartLink(await applied.text())).toBe(headerCartLink(checkout.html));
  }, 30_000);

  it("a refused change on the cart page: the page it answers with still counts the cart", async () => {
    const browser: Browser = { ip: `10.${octet()}.${octet()}.${octet()}` };
    const cartPath = await addToCart(browser, "runner-pro", "var_abc123_blue_10", 3);
    const cart = await getPage(cartPath, browser);
    const updateForm = (cart.html.match(/<form\b[\s\S]*?<\/form>/g) ?? []).find((f) =>
      f.includes('name="action" value="update"'),
    ) as string;
    const qty = /name="(qty\.[^"]+)"/.exec(updateForm)?.[1] as string;
    const res = await submit(cartPath, updateForm, { action: "update", [qty]: "2.5" }, browser);
    expect(res.status).toBe(422);
    expect(headerCartLink(await res.text())).toBe(
      `<a href="${cartPath}" aria-label="Cart, 3 items">Cart <span class="count" aria-hidden="true">3</span></a>`,
    );
  }, 30_000);
});
