/** `/policies/<slug>`: one of the store's policies, for those the merchant hosts no document of. */
import { translator } from "../i18n/translate";
import type { PageContext } from "./context";
import { html, safeUrl } from "./html";
import { renderPage } from "./layout";
import { notFoundPage } from "./not-found";
import { policyTitle } from "./policy-links";

/** `/policies/<slug>`: the policy's summary, and the merchant's full document when there is one. */
export function policyPage(ctx: PageContext, slug: string): Response {
  const policy = ctx.config.policies.find((p) => p.slug === slug);
  if (!policy) return notFoundPage(ctx);
  const full = safeUrl(policy.url);
  const t = translator(ctx);
  const title = policyTitle(t, policy);
  return renderPage(ctx, {
    title,
    body: html`<h1>${title}</h1>
<section class="card"><p>${policy.description}</p>
${full ? html`<p><a href="${full}">${t("policies.readFull")}</a></p>` : ""}</section>
<p><a href="/">${t("layout.continueShopping")}</a></p>`,
  });
}
