/**
 * The steps of one completion attempt, driven by the CheckoutObject that owns it (DESIGN.md
 * "One owner per multi-step flow"): reserve the stock, charge, place the order. Every step is
 * keyed by the attempt id the checkout stored, never by a client's idempotency key, so a
 * retry under any key, or the object's alarm, resumes the same reservation, charge and order.
 * After each step the owner records it (`note`, a transaction) before the next one starts.
 */
import type { PaymentInstrument } from "../../schemas/ucp/checkout";
import { namedCatalogManifest } from "../catalog/named-catalog";
import { stockLevels } from "../catalog/stock";
import { stockVersion } from "../catalog/stock-keys";
import type { MerchantConfig } from "../config";
import { handoffUrl } from "../lib/handoff-token";
import { derivedId, orderIdIn } from "../lib/ids";
import { callObject } from "../lib/object-call";
import { orderLabel } from "../order/order-number";
import { type OrderState, orderFromCheckout } from "../order/order-state";
import type { Authentication, PaymentProcessor } from "../payment/processor";
import { capturesAtShipment } from "../payment/store-processor";
import type { CheckoutState } from "./checkout-state";
import type { CompletionOutcome } from "./completion";
import { type CompletionFaultPoint, completionFault } from "./completion-fault";

/** What the checkout stores when an attempt starts; no credential is ever stored. */
export interface CompletionAttempt {
  /** `<checkout id>:<random>`: the reservation id and the processor's idempotency key. */
  readonly id: string;
  /** The session as it was marked complete_in_progress: what the order is made from. */
  readonly checkout: CheckoutState;
  readonly amount: number;
  readonly currency: string;
  readonly handlerId: string;
  readonly instrumentPath: string;
  readonly lines: ReadonlyArray<{ variantId: string; quantity: number }>;
  /** The platform the order belongs to, and where its webhooks go. */
  readonly owner: string;
  readonly webhookUrl?: string;
  /** The version its webhooks speak (absent in attempts stored before it was kept: the model's). */
  readonly webhookVersion?: string;
  /** The buyer's passed verification this attempt's charge carries (3-D Secure retried). */
  readonly authentication?: Authentication;
  /**
   * `checkout`: the order lives in this session's own object, under an id naming it
   * (src/lib/ids.ts orderIdIn). Absent in attempts started before issue 29: an OrderObject
   * of its own, under the id derived from owner and session, as that build began it.
   */
  readonly orderHome?: "checkout";
  /** Who sent the payment (absent in attempts stored before it was recorded: the platform). */
  readonly startedBy?: "buyer" | "platform";
  /**
   * The version of dev.ucp.shopping.payment_authentication the completing platform negotiated:
   * a verification the charge asks for becomes a checkout Action (payment-verification.ts).
   */
  readonly paymentActions?: { readonly version: string };
  readonly startedAt: number;
  /** When the alarm resumes or undoes the attempt if no request has finished it. */
  readonly deadline: number;
  readonly progress: AttemptProgress;
}

export interface AttemptProgress {
  readonly reserved?: true;
  readonly chargeId?: string;
  readonly order?: { readonly id: string; readonly permalink_url: string; readonly label?: string };
}

/** How long a started attempt may run before the alarm takes it over. */
export const RECOVERY_AFTER_MS = 5 * 60_000;

/**
 * What the steps need of the inventory and order objects. The checkout object passes their
 * stubs in (checkout-completion.ts): domain code names no object.
 */
export interface StockPort {
  reserve(
    reservationId: string,
    lines: Array<{ variantId: string; quantity: number }>,
    levels: Record<string, number | null>,
    catalogVersion: string,
  ): Promise<
    | { ok: true }
    | { ok: false; reason: "out_of_stock"; short: Array<{ variantId: string; available: number }> }
    | { ok: false; reason: string }
  >;
  release(reservationId: string): Promise<unknown>;
}

export interface OrderPort {
  /** Keeps the first order for its id: a repeated step makes no second one. */
  create(order: OrderState): Promise<unknown>;
}

/** The store's order-number allocator: the same number for the same order id, every time. */
export interface NumberPort {
  allocate(orderId: string): Promise<number>;
}

export interface AttemptPorts {
  readonly env: Env;
  readonly config: MerchantConfig;
  readonly processor: PaymentProcessor;
  readonly inventory: StockPort;
  readonly order: (orderId: string) => OrderPort;
  readonly numbers: NumberPort;
  /** Records progress in the owner's storage (one transaction), before the next step. */
  readonly note: (progress: AttemptProgress) => void;
}

/**
 * Runs the steps the attempt has not done yet. `instrument` is the credential the current
 * request brought; without one (the alarm) an attempt that still needs charging is undone.
 */
export async function driveAttempt(
  attempt: CompletionAttempt,
  instrument: PaymentInstrument | undefined,
  ports: AttemptPorts,
  now: number,
): Promise<CompletionOutcome> {
  let progress = attempt.progress;
  const note = (more: AttemptProgress, point: CompletionFaultPoint) => {
    progress = { ...progress, ...more };
    ports.note(progress);
    faultAt(point);
  };
  faultAt("marked");
  if (!progress.reserved) {
    const held = await reserve(attempt, ports, now);
    if (held) return held;
    note({ reserved: true }, "reserved");
  }
  if (!progress.chargeId) {
    if (!instrument?.credential) return compensate(attempt, ports);
    const charge = await ports.processor.charge({
      idempotencyKey: attempt.id,
      checkoutId: attempt.checkout.id,
      amount: attempt.amount,
      currency: attempt.currency,
      handlerId: instrument.handler_id,
      credential: instrument.credential,
      ...(attempt.authentication ? { authentication: attempt.authentication } : {}),
    });
    if (charge.kind !== "captured") {
      // Not charged: the units go back.
      await ports.inventory.release(attempt.id);
      return charge.kind === "declined"
        ? { kind: "declined", reason: charge.reason, instrumentPath: attempt.instrumentPath }
        : {
            kind: "requires_action",
            reason: charge.reason,
            ...(charge.authenticationId ? { authenticationId: charge.authenticationId } : {}),
          };
    }
    note({ chargeId: charge.chargeId }, "charged");
  }
  if (!progress.order) {
    note({ order: await placeOrder(attempt, progress.chargeId ?? "", ports, now) }, "ordered");
  }
  return { kind: "completed", order: progress.order as { id: string; permalink_url: string; label?: string } };
}

/** Undoes an attempt nobody can finish: voids whatever its charge key did, then frees its stock. */
export async function compensate(attempt: CompletionAttempt, ports: AttemptPorts): Promise<CompletionOutcome> {
  const voided = await ports.processor.void(attempt.id);
  // Stock stays held until the money is known to be back: a retry (alarm) tries again.
  if (!voided.ok) throw new Error(`completion ${attempt.id}: the processor did not void the charge key`);
  await ports.inventory.release(attempt.id);
  return { kind: "abandoned" };
}

async function reserve(
  attempt: CompletionAttempt,
  ports: AttemptPorts,
  now: number,
): Promise<CompletionOutcome | undefined> {
  // The manifest alone: the levels are read for these variants, never with the KV index.
  const manifest = await namedCatalogManifest(ports.env.CATALOG, now);
  const snapshot = manifest ? { manifest } : null;
  const ids = attempt.lines.map((l) => l.variantId);
  const stock = snapshot ? await stockLevels(ports.env.CATALOG, snapshot, ids) : {};
  // Variants without a stock figure (backorder, preorder, or none loaded) are not limited.
  const levels = Object.fromEntries(ids.map((id) => [id, Object.hasOwn(stock, id) ? (stock[id] ?? null) : null]));
  const version = snapshot ? stockVersion(snapshot.manifest) : "1970-01-01T00:00:00.000Z/none";
  const held = await ports.inventory.reserve(attempt.id, [...attempt.lines], levels, version);
  if (held.ok) return undefined;
  if ("short" in held) {
    return {
      kind: "out_of_stock",
      variants: held.short.map((s) => ({ variantId: s.variantId, available: s.available })),
    };
  }
  throw new Error(`inventory refused the reservation: ${held.reason}`);
}

async function placeOrder(attempt: CompletionAttempt, chargeId: string, ports: AttemptPorts, now: number) {
  const { config } = ports;
  const orderId =
    attempt.orderHome === "checkout"
      ? await orderIdIn(config.idSecret, attempt.checkout.id)
      : await derivedId("ord", config.idSecret, attempt.owner, attempt.checkout.id);
  // The buyer's page carries a sealed token, never the API id (src/lib/handoff-token.ts).
  const permalink = await handoffUrl(config.origin, config.idSecret, "order", orderId, now);
  // Keyed by the order id: a replayed step (crash, retry, alarm) gets the number it was given.
  const number = await callObject(() => ports.numbers.allocate(orderId));
  // The order keeps what a merchant cancellation must undo: this reservation and this charge.
  const ids = {
    orderId,
    permalink,
    reservationId: attempt.id,
    chargeId,
    webhookUrl: attempt.webhookUrl,
    webhookVersion: attempt.webhookVersion,
    captureAtShipment: capturesAtShipment(config),
    number,
  };
  const order = orderFromCheckout(attempt.checkout, ids, attempt.owner, now);
  // The order's create keeps the first order for this id: a repeated step makes no second one.
  await ports.order(orderId).create(order);
  return { id: orderId, permalink_url: permalink, label: orderLabel(number) };
}

function faultAt(point: CompletionFaultPoint): void {
  if (completionFault.at === point) {
    completionFault.at = undefined;
    throw new Error(`completion fault injected after "${point}" (test hook)`);
  }
}
