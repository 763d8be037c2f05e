/**
 * The store's policies are linked from the footer of every page a buyer reaches in a purchase:
 * the cart, the open checkout (which also lists them beside the payment), the confirmation,
 * the order page and a policy page itself (policies-pages.test.ts covers the storefront,
 * product and not-found pages).
 */
import { describe, expect, it } from "vitest";
import { ADDRESS, pay, tool } from "../helpers/checkout";
import { getPage } from "../helpers/pages";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;
const LINKS = ["/policies/returns", "/policies/shipping", "/policies/privacy", "/policies/terms"];

function expectFooterLinks(html: string, where: string) {
  const footer = (html.match(/<footer class="site">[\s\S]*?<\/footer>/) ?? [""])[0];
  for (const href of LINKS) expect(footer, `${where}: ${href}`).toContain(`href="${href}"`);
}

describe("policy links through a purchase", { timeout: 60_000 }, () => {
  it("cart, checkout, confirmation, order page and policy page each link every policy in the footer", async () => {
    const line = [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }];
    const cart = (await tool("create_cart", { cart: { line_items: line } })).body.result.structuredContent;
    expectFooterLinks((await getPage(new URL(cart.continue_url).pathname, { ip: IP })).html, "cart");

    const checkout = (
      await tool("create_checkout", {
        checkout: {
          line_items: line,
          buyer: { email: "jane@example.com" },
          fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        },
      })
    ).body.result.structuredContent;
    const checkoutPath = new URL(checkout.continue_url).pathname;
    const open = (await getPage(checkoutPath, { ip: IP })).html;
    expectFooterLinks(open, "checkout");
    expect(open).toContain('<h2 id="h-policies">');

    const done = (
      await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, crypto.randomUUID())
    ).body.result.structuredContent;
    expect(done.status).toBe("completed");
    expectFooterLinks((await getPage(checkoutPath, { ip: IP })).html, "confirmation");
    expectFooterLinks((await getPage(new URL(done.order.permalink_url).pathname, { ip: IP })).html, "order page");
    expectFooterLinks((await getPage("/policies/returns", { ip: IP })).html, "policy page");
  });
});
