/**
 * The CheckoutObject's record of the buyer's payment verification (3-D Secure; at most one,
 * the latest): written in the transaction that settles a `requires_action` outcome, answered
 * by the buyer (passed/failed) in a transaction of its own, marked used by the settle of the
 * charge that carried it. Never a credential: amount, currency, the instrument's display
 * data, who paid. Also the owner platform's order webhook URL, so an order the buyer places
 * on the store's page is the owner's and is announced to it. All called inside the object's
 * transactions.
 */
import type { CheckoutState } from "../src/checkout/checkout-state";
import type { CompletionOutcome, CompletionPlan } from "../src/checkout/completion";
import type { CompletionAttempt } from "../src/checkout/completion-steps";
import {
  authenticationFor,
  chosenInstrument,
  type PaymentVerification,
  verificationRequested,
} from "../src/checkout/payment-verification";
import type { AttemptSource, AttemptStart } from "./checkout-completion";
import { type Caller, ownerProfile, recordedOwner } from "./shared/owner";

export const VERIFICATION_SCHEMA = `CREATE TABLE IF NOT EXISTS payment_verification (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  verification TEXT NOT NULL
)`;

/** The prefix of a verification id the store made because the processor gave none. */
const STORE_REFERENCE = "3ds_";

/**
 * What the challenge page shows: the session's status (and order), what is being paid for,
 * the verification if any, and the owner platform the buyer returns to.
 */
export interface VerificationView {
  readonly checkout: {
    readonly status: CheckoutState["status"];
    readonly order?: { readonly id: string; readonly permalink_url: string };
    /** What the buyer is asked to pay for: titles and quantities, as the checkout holds them. */
    readonly lines?: ReadonlyArray<{ readonly title: string; readonly quantity: number }>;
  };
  /** With `action`, the page is that Action's surface (action.ready, then action.done or action.error). */
  readonly verification?: Omit<PaymentVerification, "id" | "instrumentPath">;
  /**
   * The processor's reference for a pending verification it runs itself (Stripe's
   * PaymentIntent): the page's server code asks the processor with it; never rendered.
   */
  readonly processorReference?: string;
  readonly owner?: string;
  /** The owner proved who it is (signature or API key): only then may its origin frame our pages. */
  readonly ownerAuthenticated?: boolean;
}

export function loadVerification(sql: SqlStorage): PaymentVerification | undefined {
  const row = sql
    .exec<{ verification: string }>("SELECT verification FROM payment_verification WHERE slot = 1")
    .toArray()[0];
  return row ? (JSON.parse(row.verification) as PaymentVerification) : undefined;
}

export function saveVerification(sql: SqlStorage, verification: PaymentVerification): void {
  sql.exec(
    "INSERT OR REPLACE INTO payment_verification (slot, verification) VALUES (1, ?)",
    JSON.stringify(verification),
  );
}

/**
 * Whom the attempt's order belongs to: the session's owner, also when the buyer completes it
 * on the store's page (the page's own profile never owns an order it places for a platform's
 * session), with the owner's webhook URL; and the buyer's passed verification for this charge.
 */
export function attemptStart(
  sql: SqlStorage,
  command: AttemptSource & { readonly caller: Caller },
  plan: CompletionPlan,
): AttemptStart {
  const buyer = command.caller.handoff === true;
  if (!buyer) noteOwnerWebhook(sql, command.webhookUrl, command.webhookVersion);
  const source: AttemptSource = buyer ? { owner: ownerProfile(sql) ?? command.owner, ...ownerWebhook(sql) } : command;
  const charge = {
    amount: plan.amount,
    currency: plan.currency,
    handlerId: plan.instrument.handler_id,
    type: plan.instrument.type,
  };
  return {
    owner: source.owner,
    ...(source.webhookUrl ? { webhookUrl: source.webhookUrl } : {}),
    ...(source.webhookUrl && source.webhookVersion ? { webhookVersion: source.webhookVersion } : {}),
    ...(!buyer && command.paymentActions ? { paymentActions: command.paymentActions } : {}),
    authentication: authenticationFor(loadVerification(sql), charge),
    startedBy: buyer ? "buyer" : "platform",
  };
}

/**
 * In the settle's transaction: a charge that asked for verification records what the buyer
 * must confirm (replacing any earlier one); a charge that carried a passed verification used
 * it up, captured or declined (out of stock or abandoned: never charged, it still holds).
 */
export function noteVerification(
  sql: SqlStorage,
  attempt: CompletionAttempt,
  outcome: CompletionOutcome,
  now: number,
): void {
  if (outcome.kind === "requires_action") {
    const instrument = chosenInstrument(attempt.checkout.payment?.instruments ?? []);
    if (!instrument) return;
    const request = {
      id: outcome.authenticationId ?? `${STORE_REFERENCE}${crypto.randomUUID()}`,
      amount: attempt.amount,
      currency: attempt.currency,
      instrument,
      instrumentPath: attempt.instrumentPath,
      startedBy: attempt.startedBy ?? "platform",
      // A fresh id per challenge: an Action id is never reused in the checkout's lifetime.
      ...(attempt.paymentActions
        ? { action: { id: `three_ds_${crypto.randomUUID()}`, version: attempt.paymentActions.version } }
        : {}),
    };
    saveVerification(sql, verificationRequested(request, now));
    return;
  }
  const verification = loadVerification(sql);
  const carried = verification && verification.id === attempt.authentication?.id;
  if (carried && (outcome.kind === "completed" || outcome.kind === "declined")) {
    saveVerification(sql, { ...verification, status: "used" });
  }
}

export function verificationView(sql: SqlStorage, checkout: CheckoutState): VerificationView {
  const verification = loadVerification(sql);
  const owner = recordedOwner(sql);
  const lines = checkout.line_items.map((line) => ({ title: line.item.title, quantity: line.quantity }));
  const reference = verification?.status === "pending" && !isStoreReference(verification.id);
  return {
    checkout: { status: checkout.status, ...(checkout.order ? { order: checkout.order } : {}), lines },
    ...(verification ? { verification: withoutReferences(verification) } : {}),
    ...(reference ? { processorReference: verification.id } : {}),
    ...(owner ? { owner: owner.profile, ...(owner.authenticated ? { ownerAuthenticated: true } : {}) } : {}),
  };
}

/** The id noteVerification makes when the processor gave none (the test handler's challenge). */
function isStoreReference(id: string): boolean {
  return id.startsWith(STORE_REFERENCE);
}

/** The processor's reference and our JSONPath mean nothing to the buyer's page. */
function withoutReferences(verification: PaymentVerification): VerificationView["verification"] {
  const { id: _id, instrumentPath: _path, ...shown } = verification;
  return shown;
}

const WEBHOOK_KEY = "owner_webhook_url";
/** The protocol version of the profile that gave the URL: the order's webhooks speak it (src/order/webhook-version.ts). */
const WEBHOOK_VERSION_KEY = "owner_webhook_version";

/**
 * In the `meta` table the object's every transaction creates: what the owner platform last
 * said (at create and at each of its completions; never from the buyer's page).
 */
export function noteOwnerWebhook(sql: SqlStorage, url: string | undefined, version: string | undefined): void {
  // One statement in the usual cases (a create and each completion write it): both rows or neither.
  if (url && version) {
    sql.exec(
      "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?), (?, ?)",
      WEBHOOK_KEY,
      url,
      WEBHOOK_VERSION_KEY,
      version,
    );
  } else if (url) {
    sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", WEBHOOK_KEY, url);
    sql.exec("DELETE FROM meta WHERE key = ?", WEBHOOK_VERSION_KEY);
  } else sql.exec("DELETE FROM meta WHERE key IN (?, ?)", WEBHOOK_KEY, WEBHOOK_VERSION_KEY);
}

/** Rows written before the version was kept have none: the order then speaks the model's version. */
function ownerWebhook(sql: SqlStorage): { webhookUrl?: string; webhookVersion?: string } {
  const read = (key: string) =>
    sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
  const url = read(WEBHOOK_KEY);
  const version = url ? read(WEBHOOK_VERSION_KEY) : undefined;
  return { ...(url ? { webhookUrl: url } : {}), ...(version ? { webhookVersion: version } : {}) };
}
