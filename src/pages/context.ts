/** What every page handler gets: the request, the store's config, the time, this response's nonce and CSRF state. */
import { merchantConfig } from "../config";
import { cartBadge } from "./cart-badge";
import { csrfOk, csrfState } from "./csrf";
import type { PageContext } from "./page-context";
import { newNonce } from "./respond";

export type { PageContext };

/** Throws StoreMisconfigured like every other entry point; the router answers it with a page. */
export async function pageContext(request: Request, env: Env, now = Date.now()): Promise<PageContext> {
  const config = merchantConfig(env);
  const ctx: PageContext = {
    request,
    url: new URL(request.url),
    env,
    config,
    now,
    nonce: newNonce(),
    csrf: await csrfState(request, config),
  };
  if (request.method !== "GET") return ctx;
  const cart = await cartBadge(ctx);
  return cart ? { ...ctx, cart } : ctx;
}

/** The POSTed form's fields, not yet trusted: undefined when the body is not a form. */
export async function postedForm(request: Request): Promise<FormData | undefined> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data"))
    return undefined;
  try {
    return await request.formData();
  } catch {
    return undefined;
  }
}

/** The POSTed form, or undefined when it is not a form or fails the CSRF check. */
export async function readForm(ctx: PageContext): Promise<FormData | undefined> {
  const form = await postedForm(ctx.request);
  if (!form) return undefined;
  return (await csrfOk(ctx.request, form, ctx.config)) ? form : undefined;
}

/** A form field as trimmed text ("" when absent), capped so no field can carry a novel. */
export function field(form: FormData, name: string, max = 500): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim().slice(0, max) : "";
}
