/**
 * The embedded page's own calls (POST application/json to the checkout page's URL): what the
 * host supplied through a delegation, acted on through the same tools as every page form
 * (src/pages/buyer-tools.ts). `save`: the page's form as a Continue, before Pay asks the host
 * for a credential; `complete`: the payment credential the host returned for
 * ec.payment.credential_request, with the total the host was shown; `address`: the
 * fulfillment methods it returned for ec.fulfillment.address_change_request. The answer is
 * the checkout in the session's version, for the page's change notifications. Also the page's
 * form posts inside a frame (proof.ts).
 */
import { translator } from "../i18n/translate";
import { type BuyerCallFailure, callAsBuyer, type ToolPayload } from "../pages/buyer-tools";
import { runCheckoutAction } from "../pages/checkout-actions";
import { asCheckout, totalOf, unchangedUpdate } from "../pages/checkout-data";
import { KEY_FIELD } from "../pages/checkout-form";
import { money } from "../pages/checkout-summary";
import { type PageContext, postedForm } from "../pages/context";
import { csrfOk } from "../pages/csrf";
import { isSupportedVersion } from "../ucp/versions";
import { ecCheckout } from "./checkout-json";
import { fromOwnOrigin, PROOF_FIELD, proofOk } from "./proof";

const KEY_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;
const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "street_address",
  "extended_address",
  "address_locality",
  "address_region",
  "postal_code",
  "address_country",
] as const;
const MAX_BODY = 32_768;
const MAX_FIELDS = 200;

export function isEmbeddedCall(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").startsWith("application/json");
}

/** A page form's fields when its CSRF token, or inside a frame the page's proof, says it is ours. */
export async function readCheckoutForm(ctx: PageContext, checkoutId: string): Promise<FormData | undefined> {
  const form = await postedForm(ctx.request);
  if (!form) return undefined;
  if (await csrfOk(ctx.request, form, ctx.config)) return form;
  return fromOwnOrigin(ctx.request, ctx.config) && (await proofOk(ctx.config, checkoutId, form.get(PROOF_FIELD)))
    ? form
    : undefined;
}

type Body = Record<string, unknown>;

export async function embeddedCall(ctx: PageContext, checkoutId: string): Promise<Response> {
  const text = await ctx.request.text();
  if (text.length > MAX_BODY) return answer(413, { error: "too_large" });
  let body: Body;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    body = parsed as Body;
  } catch {
    return answer(400, { error: "invalid_json" });
  }
  if (!fromOwnOrigin(ctx.request, ctx.config) || !(await proofOk(ctx.config, checkoutId, body.proof)))
    return answer(403, { error: "forbidden" });
  const version = body.version;
  if (!isSupportedVersion(version)) return answer(400, { error: "version_unsupported" });
  const key = body.key;
  if (typeof key !== "string" || !KEY_SHAPE.test(key)) return answer(400, { error: "invalid_key" });
  const done = await run(ctx, checkoutId, body, key);
  const checkout = done.payload ? { checkout: ecCheckout(done.payload, version, ctx.config) } : {};
  if ("error" in done) return answer(done.status, { error: done.error, ...checkout, message: done.message });
  return answer(200, checkout);
}

type Ran =
  | { readonly payload: ToolPayload }
  | { readonly status: number; readonly error: string; readonly payload?: ToolPayload; readonly message?: string };

async function run(ctx: PageContext, id: string, body: Body, key: string): Promise<Ran> {
  const options = { handoff: true, idempotencyKey: key };
  if (body.op === "save") {
    const form = formOf(body.fields);
    if (!form) return { status: 400, error: "invalid_fields" };
    form.set("action", "continue");
    form.set(KEY_FIELD, key);
    const done = await runCheckoutAction(ctx, id, form);
    // Not applied (a field to fix, a closed checkout): the page's own Continue shows why.
    if ("redirect" in done) return { status: 409, error: "not_saved" };
    if (done.failed) return { status: 422, error: "invalid" };
    return { payload: done.checkout as unknown as ToolPayload };
  }
  if (body.op === "complete") {
    const instrument = body.instrument;
    if (typeof instrument !== "object" || instrument === null) return { status: 400, error: "invalid_instrument" };
    if (!Number.isSafeInteger(body.total)) return { status: 400, error: "invalid_total" };
    const read = await callAsBuyer(ctx, "get_checkout", { id }, { handoff: true });
    if (!read.ok) return failed(read.error);
    const current = asCheckout(read.value);
    if (!current) return { status: 404, error: "not_found" };
    // The host's sheet showed the buyer a total: charge that or nothing (the plain form's shown_total rule).
    if (totalOf(current) !== body.total) {
      const total = money(ctx, current, totalOf(current));
      const message = translator(ctx)("checkout.totalChanged", { total });
      return { status: 409, error: "total_changed", payload: read.value, message };
    }
    const args = { id, checkout: { payment: { instruments: [instrument] } } };
    return settled(await callAsBuyer(ctx, "complete_checkout", args, options));
  }
  if (body.op === "address") {
    const address = chosenAddress(body.methods);
    if (!address) return { status: 400, error: "invalid_address" };
    const read = await callAsBuyer(ctx, "get_checkout", { id }, { handoff: true });
    if (!read.ok) return failed(read.error);
    const checkout = asCheckout(read.value);
    if (!checkout) return { status: 404, error: "not_found" };
    const fulfillment = { methods: [{ type: "shipping", destinations: [address] }] };
    return settled(
      await callAsBuyer(
        ctx,
        "update_checkout",
        { id, checkout: { ...unchangedUpdate(checkout), fulfillment } },
        options,
      ),
    );
  }
  return { status: 400, error: "unknown_op" };
}

function settled(result: { ok: true; value: ToolPayload } | { ok: false; error: BuyerCallFailure }): Ran {
  return result.ok ? { payload: result.value } : failed(result.error);
}

function failed(failure: BuyerCallFailure): Ran {
  return failure.kind === "invalid" ? { status: 400, error: "invalid" } : { status: 503, error: "unavailable" };
}

/** The page form's fields, sent as [name, value] pairs (FormData's own order, repeated names kept). */
function formOf(fields: unknown): FormData | undefined {
  if (!Array.isArray(fields) || fields.length > MAX_FIELDS) return undefined;
  const form = new FormData();
  for (const pair of fields) {
    if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string") return undefined;
    form.append(pair[0], pair[1]);
  }
  return form;
}

/**
 * The host's answer replaces fulfillment.methods (embedded.md §Fulfillment: PUT-style): the
 * store ships to one destination, the first method's selected one (else its first).
 */
function chosenAddress(methods: unknown): Record<string, string> | undefined {
  if (!Array.isArray(methods)) return undefined;
  const method = methods.find((m): m is Body => typeof m === "object" && m !== null && (m as Body).type !== "pickup");
  const destinations = Array.isArray(method?.destinations) ? (method.destinations as unknown[]) : [];
  const selected = method?.selected_destination_id;
  const chosen = (destinations.find((d) => (d as Body | null)?.id === selected) ?? destinations[0]) as Body | undefined;
  if (typeof chosen !== "object" || chosen === null) return undefined;
  const address: Record<string, string> = {};
  for (const name of ADDRESS_FIELDS) {
    const value = chosen[name];
    if (typeof value === "string" && value.trim()) address[name] = value.trim().slice(0, 300);
  }
  return address.street_address && address.address_country ? address : undefined;
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}
