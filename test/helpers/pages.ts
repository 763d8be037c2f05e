/**
 * Driving the buyer pages as a browser would, in workerd tests: a cookie jar, GET a page,
 * read its forms' hidden fields, POST a form (urlencoded, same Origin, with the CSRF
 * cookie and field the page gave).
 */
import { exports } from "cloudflare:workers";

export const ORIGIN = "https://shop.example.com";

/** Cookies as a browser keeps them for one site: Set-Cookie in, Cookie out (Max-Age=0 deletes). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const deleted = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (deleted) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(at + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** A page request (redirects not followed), with the jar's cookies; the answer's cookies go in the jar. */
export async function fetchPage(path: string, jar?: CookieJar, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (jar && jar.header()) headers.set("cookie", jar.header());
  const res = await exports.default.fetch(new URL(path, ORIGIN).href, { redirect: "manual", ...init, headers });
  jar?.take(res);
  return res;
}

/** GET a page: its response and HTML. */
export async function getPage(path: string, jar?: CookieJar): Promise<{ res: Response; html: string }> {
  const res = await fetchPage(path, jar);
  return { res, html: await res.text() };
}

/** The value of the first `<input ... name="name" ... value="...">` in the HTML (entities decoded). */
export function inputValue(html: string, name: string): string | undefined {
  for (const tag of html.match(/<input\b[^>]*>/g) ?? []) {
    if (!tag.includes(` name="${name}"`)) continue;
    const value = / value="([^"]*)"/.exec(tag)?.[1];
    return value === undefined ? undefined : decodeEntities(value);
  }
  return undefined;
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * POST a form as the browser would after loading the page that holds it: the jar's cookies,
 * the store's Origin, and the `_csrf` value the page rendered (unless `fields` sets one).
 */
export async function postForm(
  path: string,
  jar: CookieJar,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetchPage(path, jar, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The hidden fields every form on a page carries (`_csrf`, idempotency `key`) read from its HTML. */
export function formBasics(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["_csrf", "key"]) {
    const value = inputValue(html, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The path of a 303's Location. */
export function locationPath(res: Response): string {
  return new URL(res.headers.get("location") ?? "", ORIGIN).pathname;
}
