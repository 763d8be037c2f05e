/** `/products/<handle>`: one product with its variants and "add to cart". */
import type { PageContext } from "./context";
import { notFoundPage } from "./not-found";

export async function productPage(ctx: PageContext, _handle: string): Promise<Response> {
  return notFoundPage(ctx);
}
