/**
 * PaymentIntents: create (optionally confirming), retrieve, confirm, capture, cancel, list and
 * search, with Stripe's status machine (docs "How PaymentIntents work"): a decline returns
 * the intent to requires_payment_method and answers 402 with the intent inside the error; a
 * card that needs 3-D Secure leaves it in requires_action until the buyer passes
 * (/__stand-in/authenticate), after which an intent with automatic confirmation pays by
 * itself and one with `confirmation_method=manual` waits for the server's confirm.
 */
import { invalidParam, noSuch, StripeApiError, unexpectedState } from "./errors.ts";
import { now, randomId } from "./ids.ts";
import { listObject, paymentIntentObject, paymentMethodObject } from "./objects.ts";
import type { Params } from "./params.ts";
import { resolvePaymentMethod } from "./payment-methods.ts";
import { searchPaymentIntents } from "./search.ts";
import type { ChargeRecord, PaymentIntentRecord, PaymentMethodRecord, StandInState } from "./state.ts";

export interface Ctx {
  readonly state: StandInState;
  /** The stand-in's own origin, for the 3-D Secure page a next_action points at. */
  readonly origin: string;
  readonly idempotencyKey: string | undefined;
  readonly searchLagMs: number;
}

const CONFIRM_PARAMS = [
  "payment_method",
  "payment_method_data",
  "shared_payment_granted_token",
  "return_url",
  "receipt_email",
  "capture_method",
  "setup_future_usage",
  "shipping",
  "off_session",
  "error_on_requires_action",
  "mandate",
  "mandate_data",
  "payment_method_options",
  "payment_method_types",
  "use_stripe_sdk",
  "radar_options",
  "confirmation_token",
  "excluded_payment_method_types",
  "amount_details",
  "payment_details",
  "hooks",
  "expand",
] as const;

export const PARAMS = {
  create: [
    ...CONFIRM_PARAMS,
    "amount",
    "currency",
    "confirm",
    "confirmation_method",
    "automatic_payment_methods",
    "metadata",
    "description",
    "customer",
    "customer_account",
    "statement_descriptor",
    "statement_descriptor_suffix",
    "transfer_group",
    "transfer_data",
    "on_behalf_of",
    "application_fee_amount",
    "payment_method_configuration",
  ],
  confirm: [...CONFIRM_PARAMS, "client_secret"],
  retrieve: ["client_secret", "expand"],
  capture: [
    "amount_to_capture",
    "metadata",
    "statement_descriptor",
    "statement_descriptor_suffix",
    "final_capture",
    "application_fee_amount",
    "transfer_data",
    "amount_details",
    "payment_details",
    "hooks",
    "expand",
  ],
  cancel: ["cancellation_reason", "expand"],
  update: [
    "amount",
    "currency",
    "metadata",
    "description",
    "receipt_email",
    "customer",
    "capture_method",
    "payment_method",
    "payment_method_data",
    "payment_method_types",
    "payment_method_options",
    "setup_future_usage",
    "shipping",
    "statement_descriptor",
    "statement_descriptor_suffix",
    "transfer_group",
    "excluded_payment_method_types",
    "amount_details",
    "payment_details",
    "hooks",
    "expand",
  ],
  list: ["limit", "starting_after", "ending_before", "customer", "customer_account", "created", "expand"],
  search: ["query", "limit", "page", "expand"],
} as const;

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];
const CANCELABLE = [
  "requires_payment_method",
  "requires_capture",
  "requires_confirmation",
  "requires_action",
  "processing",
];
const CAPTURE_METHODS = ["automatic", "automatic_async", "manual"] as const;

export function findIntent(state: StandInState, id: string): PaymentIntentRecord {
  const pi = state.paymentIntents.get(id);
  if (!pi) throw noSuch("payment_intent", id, "intent");
  return pi;
}

const noteKey = (pi: PaymentIntentRecord, ctx: Ctx) => {
  if (ctx.idempotencyKey && !pi.idempotencyKeys.includes(ctx.idempotencyKey))
    pi.idempotencyKeys.push(ctx.idempotencyKey);
};

export function createPaymentIntent(ctx: Ctx, params: Params): Record<string, unknown> {
  const amount = params.integer("amount");
  if (amount === undefined) throw invalidParam("amount", "Missing required param: amount.", "parameter_missing");
  const currency = params.requiredString("currency").toLowerCase();
  if (!/^[a-z]{3}$/.test(currency))
    throw invalidParam("currency", `Invalid currency: ${currency}`, "parameter_invalid_string");
  // Stripe's minimum charge is 50 minor units of most currencies (docs "Minimum and maximum charge amounts").
  if (amount < 50) {
    throw invalidParam("amount", `Amount must be at least 50 ${currency} minor units`, "amount_too_small");
  }
  if (amount > 99_999_999) throw invalidParam("amount", "Amount must be no more than 99,999,999", "amount_too_large");
  const types = params.raw.payment_method_types;
  const apm = params.object("automatic_payment_methods");
  if (types !== undefined && apm !== undefined) {
    throw invalidParam(
      "automatic_payment_methods",
      "You may only specify one of these parameters: automatic_payment_methods, payment_method_types.",
      "parameter_invalid_string",
    );
  }
  const paymentMethodTypes =
    types === undefined ? ["card"] : (Array.isArray(types) ? types : [types]).filter((t) => typeof t === "string");
  const confirm = params.boolean("confirm") ?? false;
  if (!confirm && params.has("return_url")) {
    throw invalidParam("return_url", "You can only pass return_url when confirm=true.", "parameter_invalid_string");
  }
  const pm = resolvePaymentMethod(ctx.state, params);
  const pi: PaymentIntentRecord = {
    id: randomId("pi"),
    created: now(),
    clientSecret: "",
    amount,
    currency,
    status: pm ? "requires_confirmation" : "requires_payment_method",
    captureMethod: params.oneOf("capture_method", CAPTURE_METHODS) ?? "automatic_async",
    confirmationMethod: params.oneOf("confirmation_method", ["automatic", "manual"] as const) ?? "automatic",
    metadata: params.metadata(),
    description: params.string("description") ?? null,
    receiptEmail: params.string("receipt_email") ?? null,
    customer: params.string("customer") ?? null,
    statementDescriptor: params.string("statement_descriptor") ?? null,
    statementDescriptorSuffix: params.string("statement_descriptor_suffix") ?? null,
    paymentMethodTypes,
    // Without payment_method_types, Stripe turns on automatic payment methods (API 2023-08-16 on).
    automaticPaymentMethods:
      types !== undefined
        ? null
        : {
            enabled: apm?.enabled !== "false",
            ...(typeof apm?.allow_redirects === "string" ? { allow_redirects: apm.allow_redirects } : {}),
          },
    paymentMethod: pm?.id ?? null,
    amountCapturable: 0,
    amountReceived: 0,
    canceledAt: null,
    cancellationReason: null,
    latestCharge: null,
    lastPaymentError: null,
    nextAction: null,
    returnUrl: null,
    authenticated: false,
    idempotencyKeys: [],
  };
  (pi as { clientSecret: string }).clientSecret = `${pi.id}_secret_${randomId("x").slice(2)}`;
  if (confirm) checkReturnUrl(pi, params);
  ctx.state.paymentIntents.set(pi.id, pi);
  noteKey(pi, ctx);
  if (confirm) runConfirmation(ctx, pi, params, pm);
  return paymentIntentObject(pi, ctx.state, params.expand());
}

/**
 * Stripe refuses to confirm an intent with automatic payment methods (which may redirect the
 * buyer) unless a return_url is given or redirects are turned off; a validation error, so
 * nothing is created or saved under the key.
 */
function checkReturnUrl(pi: PaymentIntentRecord, params: Params): void {
  const apm = pi.automaticPaymentMethods;
  if (!apm?.enabled || apm.allow_redirects === "never" || params.has("return_url") || pi.returnUrl) return;
  throw invalidParam(
    "return_url",
    "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.",
    "parameter_missing",
  );
}

export function confirmPaymentIntent(ctx: Ctx, id: string, params: Params): Record<string, unknown> {
  const pi = findIntent(ctx.state, id);
  if (!CONFIRMABLE.includes(pi.status)) {
    throw unexpectedState(
      `You cannot confirm this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${CONFIRMABLE.join(", ")}.`,
      paymentIntentObject(pi, ctx.state),
    );
  }
  const pm = resolvePaymentMethod(ctx.state, params);
  checkReturnUrl(pi, params);
  noteKey(pi, ctx);
  runConfirmation(ctx, pi, params, pm);
  return paymentIntentObject(pi, ctx.state, params.expand());
}

function runConfirmation(ctx: Ctx, pi: PaymentIntentRecord, params: Params, given: PaymentMethodRecord | undefined) {
  const captureMethod = params.oneOf("capture_method", CAPTURE_METHODS);
  if (captureMethod) pi.captureMethod = captureMethod;
  const returnUrl = params.string("return_url");
  if (returnUrl) pi.returnUrl = returnUrl;
  const receipt = params.string("receipt_email");
  if (receipt) pi.receiptEmail = receipt;
  if (given && given.id !== pi.paymentMethod) {
    pi.paymentMethod = given.id;
    pi.authenticated = false;
  }
  const pm = pi.paymentMethod ? ctx.state.paymentMethods.get(pi.paymentMethod) : undefined;
  if (!pm) {
    throw unexpectedState(
      "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      paymentIntentObject(pi, ctx.state),
    );
  }
  const outcome = pm.outcome;
  if (outcome.kind === "decline") {
    decline(ctx, pi, pm, outcome.code, outcome.declineCode, outcome.message);
  }
  if (outcome.kind === "authenticate" && !pi.authenticated) {
    if (params.boolean("off_session") || params.boolean("error_on_requires_action")) {
      decline(
        ctx,
        pi,
        pm,
        "authentication_required",
        "authentication_required",
        "Your card was declined. This transaction requires authentication.",
      );
    }
    pi.status = "requires_action";
    pi.lastPaymentError = null;
    const page = `${ctx.origin}/__stand-in/3ds/${pi.id}`;
    pi.nextAction = pi.returnUrl
      ? { type: "redirect_to_url", redirect_to_url: { return_url: pi.returnUrl, url: page } }
      : {
          type: "use_stripe_sdk",
          use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: page, source: randomId("src") },
        };
    return;
  }
  pay(ctx.state, pi, pm);
}

/** The issuer approved: one charge, captured now or held for capture. */
export function pay(state: StandInState, pi: PaymentIntentRecord, pm: PaymentMethodRecord): void {
  const manual = pi.captureMethod === "manual";
  const charge: ChargeRecord = {
    id: randomId("ch"),
    created: now(),
    paymentIntent: pi.id,
    paymentMethod: pm.id,
    amount: pi.amount,
    amountCaptured: manual ? 0 : pi.amount,
    amountRefunded: 0,
    captured: !manual,
    status: "succeeded",
    failureCode: null,
    failureMessage: null,
    disputed: false,
  };
  state.charges.set(charge.id, charge);
  pi.latestCharge = charge.id;
  pi.status = manual ? "requires_capture" : "succeeded";
  pi.amountCapturable = manual ? pi.amount : 0;
  pi.amountReceived = manual ? 0 : pi.amount;
  pi.lastPaymentError = null;
  pi.nextAction = null;
}

/** A failed attempt: a failed charge, the intent back to requires_payment_method, 402 (saved under the key). */
function decline(
  ctx: Ctx,
  pi: PaymentIntentRecord,
  pm: PaymentMethodRecord,
  code: string,
  declineCode: string,
  message: string,
): never {
  const charge: ChargeRecord = {
    id: randomId("ch"),
    created: now(),
    paymentIntent: pi.id,
    paymentMethod: pm.id,
    amount: pi.amount,
    amountCaptured: 0,
    amountRefunded: 0,
    captured: false,
    status: "failed",
    failureCode: code,
    failureMessage: message,
    disputed: false,
  };
  ctx.state.charges.set(charge.id, charge);
  const error = {
    type: "card_error" as const,
    code,
    decline_code: declineCode,
    message,
    charge: charge.id,
    doc_url: `https://stripe.com/docs/error-codes/${code.replaceAll("_", "-")}`,
    payment_method: paymentMethodObject(pm),
  };
  pi.status = "requires_payment_method";
  pi.paymentMethod = null;
  pi.latestCharge = charge.id;
  pi.nextAction = null;
  pi.authenticated = false;
  pi.lastPaymentError = error;
  throw new StripeApiError(
    402,
    {
      ...error,
      payment_intent: paymentIntentObject(pi, ctx.state),
      request_log_url: `https://dashboard.stripe.com/test/logs/${randomId("req", 14)}`,
    },
    true,
  );
}

/** The buyer finished (or failed) the 3-D Secure step the intent's next_action asked for. */
export function authenticate(state: StandInState, id: string, passed: boolean): PaymentIntentRecord {
  const pi = findIntent(state, id);
  if (pi.status !== "requires_action") {
    throw unexpectedState(
      `This PaymentIntent has a status of ${pi.status}; only requires_action asks the buyer to authenticate.`,
    );
  }
  const pm = pi.paymentMethod ? state.paymentMethods.get(pi.paymentMethod) : undefined;
  pi.nextAction = null;
  if (!passed || !pm) {
    pi.status = "requires_payment_method";
    pi.paymentMethod = null;
    pi.lastPaymentError = {
      type: "card_error",
      code: "payment_intent_authentication_failure",
      message:
        "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.",
      doc_url: "https://stripe.com/docs/error-codes/payment-intent-authentication-failure",
      ...(pm ? { payment_method: paymentMethodObject(pm) } : {}),
    };
    return pi;
  }
  pi.authenticated = true;
  if (pi.confirmationMethod === "manual") pi.status = "requires_confirmation";
  else pay(state, pi, pm);
  return pi;
}

export function capturePaymentIntent(ctx: Ctx, id: string, params: Params): Record<string, unknown> {
  const pi = findIntent(ctx.state, id);
  if (pi.status !== "requires_capture") {
    throw unexpectedState(
      `This PaymentIntent could not be captured because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
      paymentIntentObject(pi, ctx.state),
    );
  }
  const amount = params.integer("amount_to_capture") ?? pi.amountCapturable;
  if (amount > pi.amountCapturable || amount < 0) {
    throw invalidParam(
      "amount_to_capture",
      `The amount_to_capture (${amount}) is greater than the amount_capturable (${pi.amountCapturable}).`,
      "amount_too_large",
    );
  }
  const charge = pi.latestCharge ? ctx.state.charges.get(pi.latestCharge) : undefined;
  if (charge) {
    charge.captured = true;
    charge.amountCaptured = amount;
    // The part not captured is released: Stripe shows it as refunded on the charge.
    charge.amountRefunded = charge.amount - amount;
  }
  pi.metadata = params.metadata(pi.metadata);
  pi.status = "succeeded";
  pi.amountReceived = amount;
  pi.amountCapturable = 0;
  noteKey(pi, ctx);
  return paymentIntentObject(pi, ctx.state, params.expand());
}

export function cancelPaymentIntent(ctx: Ctx, id: string, params: Params): Record<string, unknown> {
  const pi = findIntent(ctx.state, id);
  const reason = params.oneOf("cancellation_reason", [
    "duplicate",
    "fraudulent",
    "requested_by_customer",
    "abandoned",
  ] as const);
  if (!CANCELABLE.includes(pi.status)) {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(", ")}.`,
      paymentIntentObject(pi, ctx.state),
    );
  }
  const charge = pi.latestCharge ? ctx.state.charges.get(pi.latestCharge) : undefined;
  // An authorization held for capture is released; Stripe marks the uncaptured charge refunded.
  if (charge && charge.status === "succeeded" && !charge.captured) charge.amountRefunded = charge.amount;
  pi.status = "canceled";
  pi.canceledAt = now();
  pi.cancellationReason = reason ?? null;
  pi.amountCapturable = 0;
  pi.nextAction = null;
  noteKey(pi, ctx);
  return paymentIntentObject(pi, ctx.state, params.expand());
}

/**
 * POST /v1/payment_intents/:id. Metadata and descriptions may change in any status; what the
 * payment itself is (amount, currency, method, capture) only before it is paid or canceled.
 */
export function updatePaymentIntent(ctx: Ctx, id: string, params: Params): Record<string, unknown> {
  const pi = findIntent(ctx.state, id);
  const paymentFields = [
    "amount",
    "currency",
    "capture_method",
    "payment_method",
    "payment_method_data",
    "payment_method_types",
  ];
  const changesPayment = paymentFields.some((f) => params.has(f));
  if (changesPayment && !CONFIRMABLE.includes(pi.status)) {
    throw unexpectedState(
      `This PaymentIntent's ${paymentFields.find((f) => params.has(f))} could not be updated because it has a status of ${pi.status}. You may only update the ${paymentFields.find((f) => params.has(f))} of a PaymentIntent with one of the following statuses: ${CONFIRMABLE.join(", ")}.`,
      paymentIntentObject(pi, ctx.state),
    );
  }
  pi.metadata = params.metadata(pi.metadata);
  const description = params.string("description");
  if (description !== undefined) pi.description = description || null;
  const receipt = params.string("receipt_email");
  if (receipt !== undefined) pi.receiptEmail = receipt || null;
  const amount = params.integer("amount");
  if (amount !== undefined) {
    if (amount < 50)
      throw invalidParam("amount", `Amount must be at least 50 ${pi.currency} minor units`, "amount_too_small");
    pi.amount = amount;
  }
  const currency = params.string("currency");
  if (currency) pi.currency = currency.toLowerCase();
  const captureMethod = params.oneOf("capture_method", CAPTURE_METHODS);
  if (captureMethod) pi.captureMethod = captureMethod;
  const pm = resolvePaymentMethod(ctx.state, params);
  if (pm) {
    pi.paymentMethod = pm.id;
    pi.authenticated = false;
  }
  // A change to what is paid needs a new confirmation (Stripe docs "Update a PaymentIntent").
  if (changesPayment) {
    pi.status = pi.paymentMethod ? "requires_confirmation" : "requires_payment_method";
    pi.nextAction = null;
  }
  noteKey(pi, ctx);
  return paymentIntentObject(pi, ctx.state, params.expand());
}

export function retrievePaymentIntent(ctx: Ctx, id: string, params: Params): Record<string, unknown> {
  return paymentIntentObject(findIntent(ctx.state, id), ctx.state, params.expand());
}

/** Newest first, `limit` 1–100 (default 10), cursor by `starting_after` / `ending_before`. */
export function listPaymentIntents(ctx: Ctx, params: Params): Record<string, unknown> {
  const limit = params.integer("limit") ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidParam("limit", "This value must be between 1 and 100.", "parameter_invalid_integer");
  let all = [...ctx.state.paymentIntents.values()].reverse();
  const customer = params.string("customer");
  if (customer) all = all.filter((pi) => pi.customer === customer);
  const after = params.string("starting_after");
  const before = params.string("ending_before");
  if (after) all = all.slice(all.findIndex((pi) => pi.id === findIntent(ctx.state, after).id) + 1);
  if (before) {
    const end = all.findIndex((pi) => pi.id === findIntent(ctx.state, before).id);
    all = all.slice(Math.max(0, end - limit), end);
  }
  const page = all.slice(0, limit);
  return listObject(
    "/v1/payment_intents",
    page.map((pi) => paymentIntentObject(pi, ctx.state)),
    all.length > limit,
  );
}

export function searchIntents(ctx: Ctx, params: Params): Record<string, unknown> {
  const query = params.requiredString("query");
  const limit = params.integer("limit") ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidParam("limit", "This value must be between 1 and 100.", "parameter_invalid_integer");
  // Stripe's search index lags writes (docs "Search": up to a minute); searchLagMs models it.
  const visibleBefore = Date.now() - ctx.searchLagMs;
  const candidates = [...ctx.state.paymentIntents.values()]
    .reverse()
    .filter((pi) => pi.created * 1000 <= visibleBefore);
  const found = searchPaymentIntents(candidates, query);
  return {
    object: "search_result",
    data: found.slice(0, limit).map((pi) => paymentIntentObject(pi, ctx.state, params.expand())),
    has_more: found.length > limit,
    next_page: null,
    url: "/v1/payment_intents/search",
  };
}
