/**
 * Reading a console form: only a form, only from the store's own origin (when the browser
 * says), only with this session's `_csrf`. Anything else is refused before a handler acts.
 */
import { constantTimeEqual } from "../../lib/cookies";
import { CSRF_FIELD } from "./layout";
import type { ConsoleContext } from "./types";

/** Whether the browser says the request came from elsewhere (Origin, Sec-Fetch-Site). */
export function crossOrigin(request: Request, ownOrigins: readonly string[]): boolean {
  const origin = request.headers.get("origin");
  // Under Referrer-Policy: no-referrer Chromium sends a same-origin form POST's Origin as
  // "null": that says nothing, and the token still decides.
  if (origin !== null && origin !== "null" && !ownOrigins.includes(origin)) return true;
  const site = request.headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}

/** The POSTed form, or undefined when it is not a form or fails the origin or CSRF check (answer 403). */
export async function readConsoleForm(ctx: ConsoleContext): Promise<FormData | undefined> {
  const type = ctx.request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data"))
    return undefined;
  if (crossOrigin(ctx.request, [ctx.config.origin, ctx.url.origin])) return undefined;
  let form: FormData;
  try {
    form = await ctx.request.formData();
  } catch {
    return undefined;
  }
  const sent = form.get(CSRF_FIELD);
  return typeof sent === "string" && constantTimeEqual(sent, ctx.csrfToken) ? form : undefined;
}

/** The buyer pages' form field reader: trimmed text, capped. */
export { field } from "../../pages/context";
