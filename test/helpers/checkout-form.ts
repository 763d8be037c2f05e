/**
 * The checkout page's one form as a browser sends it (src/pages/checkout-view.ts): the form's
 * markup, every named field's shown value (checked radios, the selected option), and a press
 * of one of its buttons with some fields typed over.
 */
import { type Browser, decodeEntities, submit } from "./pages";

/** The page's one form (`id="checkout-form"`), as markup. */
export function checkoutForm(html: string): string {
  const form = /<form\b[^>]*id="checkout-form"[\s\S]*?<\/form>/.exec(html)?.[0];
  if (!form) throw new Error("the page has no checkout form");
  return form;
}

/** What a browser would send from the form as shown: every named field's value (hidden ones come from submit). */
export function shownFields(form: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const input of form.match(/<input\b[^>]*>/g) ?? []) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (!name || /type="hidden"/.test(input)) continue;
    if (/type="radio"/.test(input) && !/ checked/.test(input)) continue;
    out[name] = decodeEntities(/value="([^"]*)"/.exec(input)?.[1] ?? "");
  }
  for (const select of form.match(/<select\b[\s\S]*?<\/select>/g) ?? []) {
    const name = /name="([^"]*)"/.exec(select)?.[1] as string;
    out[name] =
      /<option value="([^"]*)" selected>/.exec(select)?.[1] ?? /<option value="([^"]*)"/.exec(select)?.[1] ?? "";
  }
  return out;
}

/** POSTs the page's form as if its `action` button (continue, pay, apply; "" for a remove button) was pressed. */
export function pressCheckout(
  path: string,
  html: string,
  action: string,
  typed: Record<string, string>,
  browser: Browser,
): Promise<Response> {
  const form = checkoutForm(html);
  return submit(path, form, { ...shownFields(form), ...typed, ...(action ? { action } : {}) }, browser);
}
