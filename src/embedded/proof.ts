/**
 * What stands in for the CSRF cookie inside a host's frame: a browser withholds the store's
 * SameSite=Lax cookie from a page framed by another site, so the page's forms and its ECP
 * calls carry a MAC of the session under the store's secret instead, which only a page we
 * rendered for that session holds (its URL is itself the session's secret hand-off). The
 * request must still come from the store's own origin (src/pages/csrf.ts's rules).
 */
import type { MerchantConfig } from "../config";
import { constantTimeEqual } from "../lib/cookies";
import { derivedId } from "../lib/ids";

export const PROOF_FIELD = "_ec";

export function embeddedProof(config: Pick<MerchantConfig, "idSecret">, checkoutId: string): Promise<string> {
  return derivedId("ecp", config.idSecret, checkoutId, "embedded-checkout");
}

/**
 * What names the session in what one page leaves the next (window.name, which outlives a
 * navigation to another origin): unlike the page's path, it holds no hand-off token, and
 * unlike the proof it opens nothing.
 */
export function embeddedFrameKey(config: Pick<MerchantConfig, "idSecret">, checkoutId: string): Promise<string> {
  return derivedId("ecf", config.idSecret, checkoutId, "embedded-frame");
}

/** Same origin (when the browser says) and not cross-site. */
export function fromOwnOrigin(request: Request, config: Pick<MerchantConfig, "origin">): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null" && origin !== config.origin && origin !== new URL(request.url).origin)
    return false;
  return request.headers.get("sec-fetch-site") !== "cross-site";
}

export async function proofOk(
  config: Pick<MerchantConfig, "idSecret">,
  checkoutId: string,
  sent: unknown,
): Promise<boolean> {
  return typeof sent === "string" && constantTimeEqual(sent, await embeddedProof(config, checkoutId));
}
