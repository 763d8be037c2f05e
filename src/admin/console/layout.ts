/**
 * The console's shell: nav, the store's payment mode on every page, the sign-out form; and
 * how every console response leaves (strict nonce CSP, no-store, no referrer: ids and
 * tokens appear in console URLs and nothing a merchant sees may sit in a cache).
 */
import { html, type SafeHtml, trustedHtml } from "../../pages/html";
import { htmlResponse } from "../../pages/respond";
import { CONSOLE_CSS } from "./console-styles";
import type { ConsoleContext } from "./types";

export const CSRF_FIELD = "_csrf";

export interface ConsolePage {
  readonly title: string;
  readonly body: SafeHtml;
  readonly status?: number;
  /** Progressive enhancement only: every page works without it. */
  readonly script?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** More for the head (a catalog load's page: a meta refresh inside noscript). */
  readonly head?: SafeHtml;
}

const NAV: readonly (readonly [string, string])[] = [
  ["/admin/", "Dashboard"],
  ["/admin/orders", "Orders"],
  ["/admin/catalog", "Catalog"],
  ["/admin/platforms", "Platforms"],
];

/** The hidden field every console POST form carries. */
export function consoleCsrfInput(ctx: ConsoleContext): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrfToken}">`;
}

function current(path: string, href: string): boolean {
  return href === "/admin/" ? path === "/admin/" || path === "/admin" : path === href || path.startsWith(`${href}/`);
}

export function modeBadge(ctx: ConsoleContext): SafeHtml {
  return ctx.config.paymentTestMode
    ? html`<span class="mode test" title="PAYMENT_TEST_MODE is on: test payments are accepted">Test mode</span>`
    : html`<span class="mode live" title="Real payments">Live</span>`;
}

/** Every console document's start, the sign-in page's too: no referrer, not indexed, the styles under the nonce. */
export function consoleHead(title: string, nonce: string, more: SafeHtml | string = ""): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${title}</title>
<style nonce="${nonce}">${trustedHtml(CONSOLE_CSS)}</style>
${more}
</head>`;
}

export function renderConsole(ctx: ConsoleContext, page: ConsolePage): Response {
  const { config, nonce } = ctx;
  const path = ctx.url.pathname;
  const who = ctx.principal.via === "access" ? ctx.principal.email : "admin token";
  const doc = html`${consoleHead(`${page.title} · ${config.name} console`, nonce, page.head)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="console"><div class="bar">
<a class="brand" href="/admin/">${config.name}</a>
${modeBadge(ctx)}
<nav aria-label="Console"><ul>${NAV.map(
    ([href, label]) =>
      html`<li><a href="${href}"${current(path, href) ? trustedHtml(' aria-current="page"') : ""}>${label}</a></li>`,
  )}</ul></nav>
<form method="post" action="/admin/sign-out">${consoleCsrfInput(ctx)}<button class="link" type="submit" title="Signed in as ${who}">Sign out</button></form>
</div></header>
<main id="main">
${page.body}
</main>
${page.script ? html`<script nonce="${nonce}">${trustedHtml(page.script)}</script>` : ""}
</body>
</html>`;
  return htmlResponse(doc, nonce, { status: page.status ?? 200, personal: true, headers: page.headers ?? {} });
}

/** A page that only says something (not found, refused, done). */
export function consoleMessage(
  ctx: ConsoleContext,
  status: number,
  title: string,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return renderConsole(ctx, {
    title,
    status,
    headers,
    body: html`<h1>${title}</h1><p>${text}</p><p><a href="/admin/">Back to the dashboard</a></p>`,
  });
}
