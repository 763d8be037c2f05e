/**
 * The store's policies as UCP 2026-08-25 writes them (core `policies[]`, common/types/
 * policy.json) on cart, checkout, catalog and order answers. Every entry is response-wide
 * (no `applies_to`): the store's policies are site-wide, and one entry per type is what
 * keeps them free of same-type ties (overview §Precedence). Pure.
 */
import type { MerchantConfig } from "../config";
import { policyHref } from "../config/policies";

export interface UcpPolicy {
  readonly type: string;
  readonly description: { readonly plain: string };
  readonly url: string;
}

const memo = new WeakMap<MerchantConfig["policies"], readonly UcpPolicy[]>();

/** `url` is absolute (policy.json: format uri): the merchant's document or the store's own page. */
export function policiesFor(config: Pick<MerchantConfig, "origin" | "policies">): readonly UcpPolicy[] {
  let out = memo.get(config.policies);
  if (!out) {
    out = config.policies.map((p) => {
      const href = policyHref(p);
      return {
        type: p.type,
        description: { plain: p.description },
        url: href.startsWith("/") ? `${config.origin}${href}` : href,
      };
    });
    memo.set(config.policies, out);
  }
  return out;
}
