/**
 * The merchant console in workerd tests, as a browser uses it: sign in with the test
 * ADMIN_TOKEN (.dev.vars), keep the session cookie, GET pages, POST their forms with `_csrf`.
 * Every console page's nav holds the sign-out form, so any page gives the CSRF token.
 */
import { env, exports } from "cloudflare:workers";
import { type Browser, decodeEntities, getPage, hiddenValue, type Loaded, ORIGIN, submit } from "./pages";

export type { Browser, Loaded } from "./pages";
export { formsWith, hiddenValue, locationPath, ORIGIN } from "./pages";

export const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";

/**
 * A signed-in browser. Give each test file its own `ip`: failed sign-ins and page budgets
 * count per client address.
 */
export async function signIn(browser: Browser = {}): Promise<Browser> {
  const res = await submit("/admin/sign-in", "", { token: ADMIN_TOKEN }, browser);
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return browser;
}

/** GET a console page with the browser's cookie (redirects are not followed). */
export function openPage(path: string, browser: Browser): Promise<Loaded> {
  return getPage(path, browser);
}

/** The `_csrf` value of a console page (its nav's sign-out form carries it). */
export function csrfOf(html: string): string {
  const token = hiddenValue(html, "_csrf");
  if (!token) throw new Error("no _csrf field on the page");
  return token;
}

/** The form of `html` whose action is `action` (markup), for `postForm`. */
export function formFor(html: string, action: string): string {
  const forms = html.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
  const form = forms.find((f) => decodeEntities(/\baction="([^"]*)"/.exec(f)?.[1] ?? "") === action);
  if (!form) throw new Error(`no form with action ${action}`);
  return form;
}

/**
 * Submits the form of `page` posting to `action`: its hidden fields (`_csrf`, idempotency
 * keys…) plus `fields`, from the store's origin. Override `_csrf` in `fields` to test refusals.
 */
export function postForm(
  page: string,
  action: string,
  fields: Record<string, string | readonly string[]>,
  browser: Browser,
  headers: Record<string, string> = {},
): Promise<Response> {
  return submit(action, formFor(page, action), fields, browser, headers);
}

/**
 * POSTs `fields` to `path` with a fresh `_csrf` (read from the dashboard), for actions whose
 * form a test does not need to find on a page.
 */
export async function postWithCsrf(
  path: string,
  fields: Record<string, string | readonly string[]>,
  browser: Browser,
): Promise<Response> {
  const { html } = await openPage("/admin/", browser);
  return submit(path, "", { _csrf: csrfOf(html), ...fields }, browser);
}

/** A request to /admin with no credentials at all (what a stranger's browser or script sends). */
export function anonymous(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });
}
