/**
 * Buyer pages in workerd tests, as a browser uses them: GET a page (keeping the CSRF cookie
 * the store sets), read its forms' hidden fields, POST a form back from the store's origin.
 */
import { exports } from "cloudflare:workers";

export const ORIGIN = "https://shop.example.com";

/** A browser's state between requests: the cookies the store set (CSRF, the current cart), as a Cookie header. */
export interface Browser {
  cookie?: string;
  /** `cf-connecting-ip`: page budgets are per client address (give a busy test file its own). */
  ip?: string;
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
  return {
    ...(browser.cookie ? { cookie: browser.cookie } : {}),
    ...(browser.ip ? { "cf-connecting-ip": browser.ip } : {}),
  };
}

/** Keeps every cookie a response sets (`ucp_csrf`, `ucp_cart`); Max-Age=0 forgets one. */
function remember(browser: Browser, res: Response): void {
  const jar = new Map(
    (browser.cookie ?? "").split("; ").flatMap((pair) => {
      const at = pair.indexOf("=");
      return at > 0 ? [[pair.slice(0, at), pair.slice(at + 1)] as const] : [];
    }),
  );
  for (const line of res.headers.getSetCookie()) {
    const [pair = "", ...attributes] = line.split(";");
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
    else jar.set(name, pair.slice(at + 1).trim());
  }
  const header = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  if (header) browser.cookie = header;
  else delete browser.cookie;
}

/** One cookie's value in the browser, if it has it. */
export function cookieValue(browser: Browser, name: string): string | undefined {
  for (const pair of (browser.cookie ?? "").split("; "))
    if (pair.startsWith(`${name}=`)) return pair.slice(name.length + 1);
  return undefined;
}

/** The path of a redirect's Location. */
export function locationPath(res: Response): string {
  return new URL(res.headers.get("location") ?? "", ORIGIN).pathname;
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
