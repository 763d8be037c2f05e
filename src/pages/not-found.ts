/** The HTML 404 for buyer paths (API paths answer JSON: src/router.ts). */
import { translator } from "../i18n/translate";
import type { PageContext } from "./context";
import { messagePage } from "./layout";

export function notFoundPage(ctx: PageContext): Response {
  const t = translator(ctx);
  return messagePage(ctx, 404, t("page.notFound.title"), t("page.notFound.text"));
}
