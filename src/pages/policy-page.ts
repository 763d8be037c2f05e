/** `/policies/<slug>`: one of the store's policies, for those the merchant hosts no document of. */
import type { PageContext } from "./context";
import { html, safeUrl } from "./html";
import { renderPage } from "./layout";
import { notFoundPage } from "./not-found";

/** `/policies/<slug>`: the policy's summary, and the merchant's full document when there is one. */
export function policyPage(ctx: PageContext, slug: string): Response {
  const policy = ctx.config.policies.find((p) => p.slug === slug);
  if (!policy) return notFoundPage(ctx);
  const full = safeUrl(policy.url);
  return renderPage(ctx, {
    title: policy.title,
    body: html`<h1>${policy.title}</h1>
<section class="card"><p>${policy.description}</p>
${full ? html`<p><a href="${full}">Read the full policy</a></p>` : ""}</section>
<p><a href="/">Continue shopping</a></p>`,
  });
}
