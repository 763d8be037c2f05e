/**
 * The store's email settings (docs/email.md): the Mailgun secret and vars, parsed once with
 * the rest of the merchant's config. A store without them logs its confirmations; a store
 * with some but not all, or with a bad one, names the problem (check:config, npm start, the
 * Worker's log) and holds its confirmations for retry: a mistake in email settings must
 * never stop orders, nor silently drop the mail they owe. Pure.
 */

export interface MailgunSettings {
  readonly apiKey: string;
  /** The sending domain registered with Mailgun, e.g. mg.shop.example. */
  readonly domain: string;
  /** The From header as configured, e.g. `Demo Outfitters <orders@mg.shop.example>`. */
  readonly from: string;
  /** Origin of the API (US or EU region, or a local receiver in tests), no trailing slash. */
  readonly apiBase: string;
}

export type EmailSetup =
  | { readonly kind: "off" }
  | { readonly kind: "mailgun"; readonly settings: MailgunSettings }
  | { readonly kind: "invalid"; readonly problems: readonly string[] };

export interface EmailVars {
  MAILGUN_API_KEY?: unknown;
  MAILGUN_DOMAIN?: unknown;
  EMAIL_FROM?: unknown;
  MAILGUN_API_BASE?: unknown;
}

export const DEFAULT_MAILGUN_API_BASE = "https://api.mailgun.net";

export const EMAIL_NOT_CONFIGURED =
  "email: not configured — confirmations are logged, not sent (set MAILGUN_API_KEY, MAILGUN_DOMAIN, EMAIL_FROM: docs/email.md)";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
// Deliberately narrow: no spaces, quotes, angle brackets or line breaks can reach a header.
export const ADDRESS = /^[^\s@<>"',;:()[\]\\]+@[^\s@<>"',;:()[\]\\]+\.[^\s@<>"',;:()[\]\\]+$/;
const FROM_WITH_NAME = /^([^<>"\r\n]+?)\s*<([^<>\r\n]+)>$/;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The setup the vars and secrets describe; each problem as `NAME: message` (the form check:config locates). */
export function emailSetup(vars: Readonly<EmailVars>): EmailSetup {
  const key = text(vars.MAILGUN_API_KEY);
  const domain = text(vars.MAILGUN_DOMAIN);
  const from = text(vars.EMAIL_FROM);
  const base = text(vars.MAILGUN_API_BASE);
  if (key === undefined && domain === undefined && from === undefined && base === undefined) return { kind: "off" };

  const problems: string[] = [];
  const needs = "email needs MAILGUN_API_KEY (a secret), MAILGUN_DOMAIN and EMAIL_FROM together";
  if (key === undefined)
    problems.push(
      `MAILGUN_API_KEY: not set; ${needs} (npx wrangler secret put MAILGUN_API_KEY; a line in .dev.vars for local runs)`,
    );
  if (domain === undefined) problems.push(`MAILGUN_DOMAIN: not set; ${needs}`);
  else if (!DOMAIN.test(domain))
    problems.push(`MAILGUN_DOMAIN: expected the sending domain, e.g. "mg.shop.example", got ${JSON.stringify(domain)}`);
  if (from === undefined) problems.push(`EMAIL_FROM: not set; ${needs}`);
  else if (fromAddress(from) === undefined)
    problems.push(
      `EMAIL_FROM: expected "Store Name <orders@your-domain>" or a bare address, got ${JSON.stringify(from)}`,
    );
  const apiBase = base === undefined ? DEFAULT_MAILGUN_API_BASE : apiOrigin(base);
  if (apiBase === undefined)
    problems.push(
      `MAILGUN_API_BASE: expected an https origin such as ${DEFAULT_MAILGUN_API_BASE} or https://api.eu.mailgun.net, got ${JSON.stringify(base)}`,
    );

  if (problems.length > 0 || !key || !domain || !from || !apiBase) return { kind: "invalid", problems };
  return { kind: "mailgun", settings: { apiKey: key, domain, from, apiBase } };
}

/** Every problem of a half-done or malformed setup, secret included; none for a store without email. */
export function emailProblems(vars: Readonly<EmailVars>): string[] {
  const setup = emailSetup(vars);
  return setup.kind === "invalid" ? [...setup.problems] : [];
}

/**
 * The problems wrangler.toml's [vars] alone can show (check:config): they never hold the key,
 * a secret, so its absence is left to the caller that can see secrets; its presence there
 * is itself a problem.
 */
export function emailVarProblems(vars: Readonly<EmailVars>): string[] {
  const problems: string[] = [];
  if (vars.MAILGUN_API_KEY !== undefined)
    problems.push(
      "MAILGUN_API_KEY: a secret, not a var: remove it from [vars] and run `npx wrangler secret put MAILGUN_API_KEY`",
    );
  if ([vars.MAILGUN_DOMAIN, vars.EMAIL_FROM, vars.MAILGUN_API_BASE].every((v) => text(v) === undefined))
    return problems;
  return [...problems, ...emailProblems({ ...vars, MAILGUN_API_KEY: "(secret)" })];
}

/** The address inside a From value, or undefined when it is not one header-safe mailbox. */
export function fromAddress(from: string): string | undefined {
  const named = FROM_WITH_NAME.exec(from);
  const address = named ? named[2] : from;
  return address !== undefined && ADDRESS.test(address) ? address : undefined;
}

/** https origins; http only for a receiver on this machine (local tests, never a deployed store). */
function apiOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const local = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !local) return undefined;
  if (url.pathname.replace(/\/+$/, "") !== "" || url.search || url.hash || url.username || url.password)
    return undefined;
  return url.origin;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
