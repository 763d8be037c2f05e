/**
 * Issue 27 item 6: a shared storefront cart link shows the cart, not a checkout that holds
 * someone's data. "Check out" from the cart's link used to land anyone holding it on the
 * cart's one checkout, with the email and phone of whoever had started checking out there.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openHandoff } from "../../src/lib/handoff-token";
import { callAsBuyer } from "../../src/pages/buyer-tools";
import { pageContext } from "../../src/pages/context";
import { type Browser, cookieValue, getPage, locationPath, ORIGIN, submit } from "../helpers/pages";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;
const EMAIL = "first.buyer@example.com";
const PHONE = "+15557654321";

async function checkoutIdOf(path: string): Promise<string> {
  const opened = await openHandoff("test-signing-key", "checkout", path.split("/").pop() as string, Date.now());
  if (!opened.ok) throw new Error(`${path} does not open`);
  return opened.id;
}

function formWith(html: string, action: string): string {
  const form = (html.match(/<form\b[\s\S]*?<\/form>/g) ?? []).find((f) => f.includes(`value="${action}"`));
  expect(form, action).toBeDefined();
  return form as string;
}

async function addToCart(browser: Browser): Promise<string> {
  const { html } = await getPage("/products/runner-pro", browser);
  const form = (html.match(/<form class="card" method="post" action="\/cart">[\s\S]*?<\/form>/) ?? [])[0] as string;
  const res = await submit("/cart", form, { variant: "var_abc123_blue_10", quantity: "2" }, browser);
  expect(res.status).toBe(303);
  return locationPath(res);
}

async function checkOut(cartPath: string, browser: Browser): Promise<Response> {
  const { html } = await getPage(cartPath, browser);
  return submit(cartPath, formWith(html, "checkout"), { action: "checkout" }, browser);
}

/** The first buyer types their email and phone into the checkout (as its page does, by hand-off). */
async function fillBuyer(checkoutId: string): Promise<void> {
  const ctx = await pageContext(new Request(`${ORIGIN}/`), env);
  const read = await callAsBuyer(ctx, "get_checkout", { id: checkoutId }, { handoff: true });
  if (!read.ok) throw new Error(JSON.stringify(read.error));
  const lines = (read.value.line_items as Array<{ item: { id: string }; quantity: number }>).map((l) => ({
    item: { id: l.item.id },
    quantity: l.quantity,
  }));
  const changed = await callAsBuyer(
    ctx,
    "update_checkout",
    { id: checkoutId, checkout: { line_items: lines, buyer: { email: EMAIL, phone_number: PHONE } } },
    { handoff: true },
  );
  expect(changed.ok && (changed.value.buyer as { email?: string }).email).toBe(EMAIL);
}

describe("a shared cart link", { timeout: 60_000 }, () => {
  it("shows the cart but never the checkout someone else filled in; its owner's browser still gets there", async () => {
    const first: Browser = { ip: IP };
    const cartPath = await addToCart(first);
    const handed = await checkOut(cartPath, first);
    expect(handed.status).toBe(303);
    const checkoutPath = locationPath(handed);
    await fillBuyer(await checkoutIdOf(checkoutPath));

    // Someone else opens the shared link: the cart, yes.
    const other: Browser = { ip: IP };
    const shown = await getPage(cartPath, other);
    expect(shown.res.status).toBe(200);
    expect(shown.html).toContain("Runner Pro - Blue / Size 10");
    // "Check out" does not hand them the first buyer's checkout.
    const tried = await checkOut(cartPath, other);
    expect(tried.headers.get("location")).toBeNull();
    expect(tried.status).toBe(409);
    const said = await tried.text();
    expect(said).not.toContain(EMAIL);
    expect(said).not.toContain("5557654321");
    expect(said).not.toContain(checkoutPath.split("/").pop());

    // The first buyer's own browser goes back to the cart and on to its checkout as before.
    const back = await checkOut(cartPath, first);
    expect(back.status).toBe(303);
    expect(locationPath(back)).toBe(checkoutPath);

    // The other person can buy the same items in a cart of their own, with an empty checkout.
    const copied = await submit(cartPath, formWith(said, "copy"), { action: "copy" }, other);
    expect(copied.status).toBe(303);
    const ownCart = locationPath(copied);
    expect(ownCart).not.toBe(cartPath);
    expect(cookieValue(other, "ucp_cart")).toBe(ownCart.split("/").pop());
    const own = await getPage(ownCart, other);
    expect(own.html).toMatch(/name="qty\.[^"]+" value="2"/);
    const theirs = await checkOut(ownCart, other);
    expect(theirs.status).toBe(303);
    expect(locationPath(theirs)).not.toBe(checkoutPath);
    const page = await getPage(locationPath(theirs), other);
    expect(page.html).not.toContain(EMAIL);
  });

  it("a cart whose checkout holds nobody's data yet still checks out from the link", async () => {
    const first: Browser = { ip: IP };
    const cartPath = await addToCart(first);
    const handed = await checkOut(cartPath, first);
    const other: Browser = { ip: IP };
    const again = await checkOut(cartPath, other);
    expect(again.status).toBe(303);
    expect(locationPath(again)).toBe(locationPath(handed));
  });
});
