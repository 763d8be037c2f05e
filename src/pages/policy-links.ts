/**
 * The store's policies on the buyer pages: links in every page's footer and a section on the
 * checkout (policy-page.ts shows one the merchant gave no document of its own).
 */

import { POLICY_PAGE_PATH, policyHref, type StorePolicy } from "../config/policies";
import type { MessageKey } from "../i18n/messages/en";
import { type Translate, translator } from "../i18n/translate";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";

export const POLICY_CSS = `
footer.site nav ul{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.policies dt{font-weight:600}
.policies dd{margin:0 0 .75rem}
`;

/** The store's default titles (src/config/policies.ts SHORT_TYPES), in English there: these pages translate them. */
const DEFAULT_TITLES: Readonly<Record<string, readonly [string, MessageKey]>> = {
  returns: ["Returns", "policies.returns"],
  warranty: ["Warranty", "policies.warranty"],
  shipping: ["Shipping", "policies.shipping"],
  privacy: ["Privacy", "policies.privacy"],
  terms: ["Terms", "policies.terms"],
};

/** A title the merchant wrote stays as written; the store's default one is said in the store's language. */
export function policyTitle(t: Translate, policy: StorePolicy): string {
  const fallback = DEFAULT_TITLES[policy.slug];
  return fallback && fallback[0] === policy.title ? t(fallback[1]) : policy.title;
}

function link(t: Translate, policy: StorePolicy): SafeHtml {
  return html`<a href="${safeUrl(policyHref(policy)) ?? `${POLICY_PAGE_PATH}${policy.slug}`}">${policyTitle(t, policy)}</a>`;
}

/** The footer's list of policy links (nothing when the store has none). */
export function policyFooterLinks(t: Translate, policies: readonly StorePolicy[]): SafeHtml | "" {
  if (policies.length === 0) return "";
  return html`<nav aria-label="${t("policies.title")}"><ul>${policies.map((p) => html`<li>${link(t, p)}</li>`)}</ul></nav>`;
}

/** On the checkout, beside the payment: each policy's summary and its link. */
export function policySection(ctx: PageContext): SafeHtml | "" {
  const { policies } = ctx.config;
  if (policies.length === 0) return "";
  const t = translator(ctx);
  return html`<section class="card policies" aria-labelledby="h-policies">
<h2 id="h-policies">${t("policies.title")}</h2>
<dl>${policies.map((p) => html`<dt>${link(t, p)}</dt><dd>${p.description}</dd>`)}</dl>
</section>`;
}
