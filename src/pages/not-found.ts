/** The HTML 404 for buyer paths (API paths answer JSON: src/router.ts). */
import type { PageContext } from "./context";
import { messagePage } from "./layout";

export function notFoundPage(ctx: PageContext): Response {
  return messagePage(ctx, 404, "Page not found", "There is nothing at this address.");
}
