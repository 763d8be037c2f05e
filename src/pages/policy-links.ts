/**
 * The store's policies on the buyer pages: links in every page's footer and a section on the
 * checkout (policy-page.ts shows one the merchant gave no document of its own).
 */

import { type Translate, translator } from "../i18n/translate";
import { POLICY_PAGE_PATH, policyHref, type StorePolicy } from "../policies/store-policies";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";

export const POLICY_CSS = `
footer.site nav ul{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.policies dt{font-weight:600}
.policies dd{margin:0 0 .75rem}
`;

function link(policy: StorePolicy): SafeHtml {
  return html`<a href="${safeUrl(policyHref(policy)) ?? `${POLICY_PAGE_PATH}${policy.slug}`}">${policy.title}</a>`;
}

/** The footer's list of policy links (nothing when the store has none). */
export function policyFooterLinks(t: Translate, policies: readonly StorePolicy[]): SafeHtml | "" {
  if (policies.length === 0) return "";
  return html`<nav aria-label="${t("policies.title")}"><ul>${policies.map((p) => html`<li>${link(p)}</li>`)}</ul></nav>`;
}

/** On the checkout, beside the payment: each policy's summary and its link. */
export function policySection(ctx: PageContext): SafeHtml | "" {
  const { policies } = ctx.config;
  if (policies.length === 0) return "";
  return html`<section class="card policies" aria-labelledby="h-policies">
<h2 id="h-policies">${translator(ctx)("policies.title")}</h2>
<dl>${policies.map((p) => html`<dt>${link(p)}</dt><dd>${p.description}</dd>`)}</dl>
</section>`;
}
