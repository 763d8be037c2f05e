/**
 * Who may frame a checkout page (DESIGN.md trust model; embedded-protocol.md §Security: the
 * business MUST set `frame-ancestors <host_origin>`). The one origin is the session owner's
 * profile origin, and only when that owner authenticated (a signature, or an API key the
 * merchant issued on the console's Platforms page): an anonymous owner names any profile URL
 * it likes. Every other page, and this one for anyone else, keeps frame-ancestors 'none'.
 * The same rule as the payment Action surface (src/pages/action-surface.ts).
 */
import type { PageContext } from "../pages/context";
import { paymentVerification } from "../tools/payment-verification";

/** The origin allowed to frame this checkout's page (and the only postMessage peer), if any. */
export async function embeddingOrigin(ctx: PageContext, checkoutId: string): Promise<string | undefined> {
  const answer = await paymentVerification({ env: ctx.env, config: ctx.config, checkoutId });
  if (!answer.ok || answer.view.ownerAuthenticated !== true) return undefined;
  return profileOrigin(answer.view.owner);
}

/** https origins only (http on localhost, for a platform on the developer's machine). */
export function profileOrigin(profile: string | undefined): string | undefined {
  try {
    const url = profile ? new URL(profile) : undefined;
    return url && (url.protocol === "https:" || url.hostname === "localhost") ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The response's own policy with that one frame ancestor; unchanged without one. */
export function allowFraming(response: Response, origin: string | undefined): Response {
  const policy = response.headers.get("content-security-policy");
  if (!origin || !policy?.includes("frame-ancestors 'none'")) return response;
  const framed = new Response(response.body, response);
  framed.headers.set("content-security-policy", policy.replace("frame-ancestors 'none'", `frame-ancestors ${origin}`));
  // frame-ancestors supersedes it in current browsers; older ones would refuse every frame.
  framed.headers.delete("x-frame-options");
  return framed;
}
