/**
 * Issue 27 item 6 in Chromium: a cart link someone shared shows the cart, but "Check out"
 * does not open the checkout its first buyer filled in. The other person is told so (axe
 * clean) and can start a cart of their own with the same items; the first buyer's browser
 * still goes on to its checkout.
 */
import { expect, it } from "vitest";
import type { Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { BUYER_EMAIL, createCart, SHIPPING_ADDRESS } from "./sessions";

describeBrowser("a shared cart link", () => {
  const h = useHarness();

  it("shows the cart, not the first buyer's checkout; the other person copies the cart", async () => {
    const agent = await h.agent();
    const cart: Json = await createCart(agent);
    const [first, other] = await Promise.all([h.desktop(), h.desktop()]);
    try {
      // The first buyer checks out from the link; their details are then in the checkout.
      const mine = await first.newPage();
      await mine.goto(cart.continue_url);
      await mine.getByRole("button", { name: "Check out" }).click();
      await mine.waitForURL(/\/checkout\//);
      const checkoutUrl = mine.url();
      const checkout = await agent.call("create_checkout", { checkout: { cart_id: cart.id } });
      const lines = checkout.line_items.map((l: Json) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
      const filled = await agent.call("update_checkout", {
        id: checkout.id,
        checkout: {
          line_items: lines,
          buyer: { email: BUYER_EMAIL, first_name: "Robin" },
          fulfillment: { methods: [{ type: "shipping", destinations: [SHIPPING_ADDRESS] }] },
        },
      });
      expect(filled.buyer.email).toBe(BUYER_EMAIL);

      // Someone else with the same link sees the cart; Check out tells them, and shows nothing of Robin.
      const theirs = await other.newPage();
      await theirs.goto(cart.continue_url);
      await theirs.getByRole("heading", { level: 1, name: "Your cart" }).waitFor();
      await theirs.getByRole("button", { name: "Check out" }).click();
      await theirs.getByRole("alert").waitFor();
      expect(await theirs.getByRole("alert").innerText()).toContain("being checked out in another browser");
      expect(theirs.url()).not.toContain("/checkout/");
      expect(await theirs.content()).not.toContain(BUYER_EMAIL);
      await expectNoSeriousAxeViolations(theirs);
      await screenshot(theirs, "shared-cart-link");

      // A cart of their own, with the same items, and an empty checkout.
      await theirs.getByRole("button", { name: "Start my own cart with these items" }).click();
      await theirs.waitForURL((url) => url.pathname.startsWith("/cart/") && url.href !== cart.continue_url);
      for (const line of cart.line_items) await theirs.getByText(line.item.title).first().waitFor();
      await theirs.getByRole("button", { name: "Check out" }).click();
      await theirs.waitForURL(/\/checkout\//);
      expect(theirs.url()).not.toBe(checkoutUrl);
      expect(await theirs.content()).not.toContain(BUYER_EMAIL);

      // The first buyer goes back to the cart and on to their own checkout.
      await mine.goto(cart.continue_url);
      await mine.getByRole("button", { name: "Check out" }).click();
      await mine.waitForURL(/\/checkout\//);
      expect(mine.url()).toBe(checkoutUrl);
      expect(await mine.content()).toContain(BUYER_EMAIL);
    } finally {
      await Promise.allSettled([first.close(), other.close()]);
    }
  });
});
