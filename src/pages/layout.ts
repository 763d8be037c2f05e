/** The page shell every buyer page shares: header with the store's name and logo, main, footer. */

import { pageLanguage, type Translate, translator } from "../i18n/translate";
import type { PageContext } from "./context";
import { CSRF_FIELD } from "./csrf";
import { html, type SafeHtml, safeUrl, trustedHtml } from "./html";
import { POLICY_CSS, policyFooterLinks } from "./policy-links";
import { htmlResponse } from "./respond";
import { accentCss, BASE_CSS } from "./styles";

export interface PageSpec {
  /** The document title and, unless `heading` is false, the page's h1. */
  readonly title: string;
  readonly body: SafeHtml;
  readonly status?: number;
  /** A buyer's own data: no-store. */
  readonly personal?: boolean;
  /** Progressive enhancement only: every page works without it. */
  readonly script?: string;
  /** This page's own rules, after the shared ones (code's own CSS, never data). */
  readonly css?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The hidden CSRF field every POST form carries. */
export function csrfInput(ctx: PageContext): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrf.token}">`;
}

/** The header's cart link: always there (GET /cart finds the cookie's cart), with the count when one exists. */
function cartLink(ctx: PageContext, t: Translate): SafeHtml {
  const cart = ctx.cart;
  if (!cart) return html`<a href="/cart">${t("layout.cart")}</a>`;
  return html`<a href="${cart.href}" aria-label="${t("layout.cartCount", { count: cart.count })}">${t("layout.cart")} <span class="count" aria-hidden="true">${cart.count}</span></a>`;
}

export function renderPage(ctx: PageContext, spec: PageSpec): Response {
  const { config, nonce } = ctx;
  const t = translator(ctx);
  const logo = safeUrl(config.storefront.logoUrl);
  const doc = html`<!doctype html>
<html lang="${pageLanguage(config.storefront.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${spec.title} · ${config.name}</title>
<style nonce="${nonce}">${trustedHtml(accentCss(config.storefront.accentColor) + BASE_CSS + POLICY_CSS + (spec.css ?? ""))}</style>
</head>
<body>
<a class="skip" href="#main">${t("layout.skip")}</a>
<header class="site"><div class="bar">
<a class="brand" href="/">${logo ? html`<img src="${logo}" alt="">` : ""}<span>${config.name}</span></a>
<nav aria-label="${t("layout.nav")}"><a href="/">${t("layout.shop")}</a> ${cartLink(ctx, t)}</nav>
</div></header>
<main id="main">
${spec.body}
</main>
<footer class="site">${config.name}${policyFooterLinks(t, config.policies)}</footer>
${spec.script ? html`<script nonce="${nonce}">${trustedHtml(spec.script)}</script>` : ""}
</body>
</html>`;
  const headers: Record<string, string> = { ...spec.headers };
  if (ctx.csrf.setCookie) headers["set-cookie"] = ctx.csrf.setCookie;
  // The cart link carries the buyer's own cart: such a page is never stored by a shared cache,
  // and a shared page varies by the cookie that would have given it one.
  const personal = (spec.personal ?? false) || ctx.cart !== undefined;
  if (!personal) headers.vary = "Cookie";
  return htmlResponse(doc, nonce, { status: spec.status ?? 200, personal, headers });
}

/** A page that only says something (not found, link expired, try later). */
export function messagePage(
  ctx: PageContext,
  status: number,
  title: string,
  text: string,
  headers?: Readonly<Record<string, string>>,
): Response {
  return renderPage(ctx, {
    title,
    status,
    personal: true,
    body: html`<h1>${title}</h1><p>${text}</p><p><a href="/">${translator(ctx)("layout.continueShopping")}</a></p>`,
    ...(headers ? { headers } : {}),
  });
}
