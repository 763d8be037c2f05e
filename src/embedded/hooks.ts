/**
 * The checkout page's hooks into ECP (src/pages/checkout-page.ts calls these and nothing else):
 * the page's response framed for the owner platform and, loaded with `ec_version`, made an
 * Embedded Checkout; the page's POSTs read with the frame's proof; redirects keep `ec_*`.
 */
import type { ToolPayload } from "../pages/buyer-tools";
import type { PageContext } from "../pages/context";
import { embeddedCall, isEmbeddedCall, readCheckoutForm } from "./calls";
import { allowFraming, embeddingOrigin } from "./frame-policy";
import { embedCheckout } from "./page";
import { embeddedFrameKey, embeddedProof } from "./proof";
import { embeddedSession, withEcParams } from "./session";

export { embeddedCall, isEmbeddedCall, readCheckoutForm };

/** The page (GET, or a POST answered with the page): frame-ancestors for the authenticated owner's origin; with ec_version, the ECP page. */
export async function embeddableCheckout(
  ctx: PageContext,
  checkoutId: string,
  checkout: object,
  response: Response,
): Promise<Response> {
  const payload = checkout as ToolPayload;
  const origin = await embeddingOrigin(ctx, checkoutId);
  const framed = allowFraming(response, origin);
  const session = embeddedSession(ctx.url);
  if (!session || !origin) return framed;
  const proof = await embeddedProof(ctx.config, checkoutId);
  const frameKey = await embeddedFrameKey(ctx.config, checkoutId);
  return embedCheckout(ctx, framed, { session, origin, proof, frameKey, payload });
}

/** A form post's redirect back to the page, with the ec_ parameters the post came with. */
export function keepEmbedded(ctx: PageContext, response: Response): Response {
  const location = response.headers.get("location");
  if (!location || !ctx.url.searchParams.has("ec_version")) return response;
  const kept = new Response(response.body, response);
  kept.headers.set("location", withEcParams(location, ctx.url));
  return kept;
}
