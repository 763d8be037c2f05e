/** `/`: the store's front page with search. (Issue 11: built by the storefront work.) */
import type { PageContext } from "./context";
import { notFoundPage } from "./not-found";

export async function storefrontPage(ctx: PageContext): Promise<Response> {
  return notFoundPage(ctx);
}
