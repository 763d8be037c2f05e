/**
 * Buyer pages in workerd tests, as a browser uses them: GET a page (keeping the CSRF cookie
 * the store sets), read its forms' hidden fields, POST a form back from the store's origin.
 */
import { exports } from "cloudflare:workers";

export const ORIGIN = "https://shop.example.com";

/** A browser's state between requests: its CSRF cookie. */
export interface Browser {
  cookie?: string;
}

export interface Loaded {
  readonly res: Response;
  readonly html: string;
}

/** The path part of a hand-off URL (continue_url, permalink_url). */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

function cookieHeader(browser: Browser): Record<string, string> {
  return browser.cookie ? { cookie: browser.cookie } : {};
}

/** Keeps the `ucp_csrf` cookie a response sets. */
function remember(browser: Browser, res: Response): void {
  const set = res.headers.get("set-cookie");
  const pair = set ? /ucp_csrf=[^;]+/.exec(set)?.[0] : undefined;
  if (pair) browser.cookie = pair;
}

export async function getPage(path: string, browser: Browser = {}): Promise<Loaded> {
  const res = await exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: cookieHeader(browser) });
  remember(browser, res);
  return { res, html: await res.text() };
}

/**
 * The `<form>` elements of a page whose hidden `name` field equals `value` (e.g. the
 * checkout's `action`), as their markup.
 */
export function formsWith(html: string, name: string, value: string): string[] {
  const forms = html.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
  return forms.filter((f) => hiddenValue(f, name) === value);
}

/** The value of the first hidden input named `name` in `html` (entities decoded). */
export function hiddenValue(html: string, name: string): string | undefined {
  const inputs = html.match(/<input\b[^>]*>/g) ?? [];
  for (const input of inputs) {
    if (!/type="hidden"/.test(input) || !input.includes(`name="${name}"`)) continue;
    const value = /value="([^"]*)"/.exec(input)?.[1];
    return value === undefined ? undefined : decodeEntities(value);
  }
  return undefined;
}

export function decodeEntities(text: string): string {
  return text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/**
 * POSTs a form the way the browser would submit it: the page's hidden fields of that form
 * (CSRF token, idempotency key…) plus `fields`, url-encoded, with the cookie and the store's Origin.
 * `form` is one form's markup from `formsWith`; pass `{ _csrf: "" }`-style overrides in `fields`.
 */
export async function submit(
  path: string,
  form: string,
  fields: Record<string, string | readonly string[]>,
  browser: Browser,
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams();
  const hidden = form.match(/<input\b[^>]*type="hidden"[^>]*>/g) ?? [];
  for (const input of hidden) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    const value = /value="([^"]*)"/.exec(input)?.[1];
    if (name !== undefined && !(name in fields)) body.append(name, decodeEntities(value ?? ""));
  }
  for (const [name, value] of Object.entries(fields)) {
    for (const v of typeof value === "string" ? [value] : value) body.append(name, v);
  }
  const res = await exports.default.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: ORIGIN,
      ...cookieHeader(browser),
      ...headers,
    },
    body,
  });
  remember(browser, res);
  return res;
}
