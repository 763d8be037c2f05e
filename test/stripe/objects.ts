/**
 * The stand-in's records written as Stripe's API objects. Every key of Stripe's own example
 * object (../shared/stripe/fixtures3.json `resources.*`) is present, so a client reading a
 * field finds it where Stripe puts it; fields the stand-in does not model are null
 * (test/node/stripe-stand-in.test.ts lists each such difference).
 */

import type {
  ChargeRecord,
  DisputeRecord,
  PaymentIntentRecord,
  PaymentMethodRecord,
  RefundRecord,
  StandInState,
} from "./state.ts";
import type { Card } from "./test-cards.ts";

type Obj = Record<string, unknown>;

/** A stable fingerprint per card number, as Stripe's is per card. */
const fingerprint = (card: Card) => `stand${card.brand.slice(0, 4)}${card.last4}`.padEnd(16, "x").slice(0, 16);
const EXP_YEAR = new Date().getUTCFullYear() + 3;

export function paymentIntentObject(pi: PaymentIntentRecord, state: StandInState, expand: string[] = []): Obj {
  const charge = pi.latestCharge ? state.charges.get(pi.latestCharge) : undefined;
  const method = pi.paymentMethod ? state.paymentMethods.get(pi.paymentMethod) : undefined;
  return {
    id: pi.id,
    object: "payment_intent",
    amount: pi.amount,
    amount_capturable: pi.amountCapturable,
    amount_details: { tip: {} },
    amount_received: pi.amountReceived,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: pi.automaticPaymentMethods,
    canceled_at: pi.canceledAt,
    cancellation_reason: pi.cancellationReason,
    capture_method: pi.captureMethod,
    client_secret: pi.clientSecret,
    confirmation_method: pi.confirmationMethod,
    created: pi.created,
    currency: pi.currency,
    customer: pi.customer,
    customer_account: null,
    description: pi.description,
    excluded_payment_method_types: null,
    last_payment_error: pi.lastPaymentError,
    latest_charge: expand.includes("latest_charge") && charge ? chargeObject(charge, state) : pi.latestCharge,
    livemode: false,
    managed_payments: { enabled: false },
    metadata: { ...pi.metadata },
    next_action: pi.nextAction,
    on_behalf_of: null,
    payment_method: expand.includes("payment_method") && method ? paymentMethodObject(method) : pi.paymentMethod,
    payment_method_configuration_details: pi.automaticPaymentMethods?.enabled
      ? { id: "pmc_standInDefaultConfiguration", parent: null }
      : null,
    payment_method_options: pi.paymentMethodTypes.includes("card")
      ? { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } }
      : {},
    payment_method_types: [...pi.paymentMethodTypes],
    processing: null,
    receipt_email: pi.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: pi.statementDescriptor,
    statement_descriptor_suffix: pi.statementDescriptorSuffix,
    status: pi.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export function paymentMethodObject(pm: PaymentMethodRecord): Obj {
  const { card } = pm;
  return {
    id: pm.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: card.country,
      display_brand: card.brand,
      exp_month: 12,
      exp_year: EXP_YEAR,
      fingerprint: fingerprint(card),
      funding: card.funding,
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: pm.created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

function cardDetails(card: Card, amount: number, authenticated: boolean): Obj {
  return {
    amount_authorized: amount,
    authorization_code: null,
    brand: card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
    country: card.country,
    exp_month: 12,
    exp_year: EXP_YEAR,
    extended_authorization: { status: "disabled" },
    fingerprint: fingerprint(card),
    funding: card.funding,
    incremental_authorization: { status: "unavailable" },
    installments: null,
    last4: card.last4,
    mandate: null,
    multicapture: { status: "unavailable" },
    network: card.brand,
    network_token: { used: false },
    network_transaction_id: null,
    overcapture: { maximum_amount_capturable: amount, status: "unavailable" },
    regulated_status: "unregulated",
    three_d_secure: authenticated
      ? {
          authentication_flow: "challenge",
          electronic_commerce_indicator: "05",
          exemption_indicator: null,
          result: "authenticated",
          result_reason: null,
          transaction_id: null,
          version: "2.2.0",
        }
      : null,
    transaction_link_id: null,
    wallet: null,
  };
}

export function chargeObject(ch: ChargeRecord, state: StandInState): Obj {
  const pi = state.paymentIntents.get(ch.paymentIntent);
  const pm = state.paymentMethods.get(ch.paymentMethod);
  const refunds = [...state.refunds.values()].filter((r) => r.charge === ch.id).reverse();
  const failed = ch.status === "failed";
  return {
    id: ch.id,
    object: "charge",
    amount: ch.amount,
    amount_captured: ch.amountCaptured,
    amount_refunded: ch.amountRefunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: ch.captured ? `txn_${ch.id.slice(3)}` : null,
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: "STAND-IN STORE",
    captured: ch.captured,
    created: ch.created,
    currency: pi?.currency ?? "usd",
    customer: null,
    description: pi?.description ?? null,
    disputed: ch.disputed,
    failure_balance_transaction: null,
    failure_code: ch.failureCode,
    failure_message: ch.failureMessage,
    fraud_details: {},
    livemode: false,
    metadata: { ...(pi?.metadata ?? {}) },
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failed ? "declined_by_network" : "approved_by_network",
      reason: failed ? (ch.failureCode === "card_declined" ? "generic_decline" : ch.failureCode) : null,
      seller_message: failed ? "The bank did not return any further details with this decline." : "Payment complete.",
      type: failed ? "issuer_declined" : "authorized",
    },
    paid: !failed,
    payment_intent: ch.paymentIntent,
    payment_method: ch.paymentMethod,
    payment_method_details: pm
      ? { card: cardDetails(pm.card, ch.amount, pi?.authenticated ?? false), type: "card" }
      : null,
    receipt_email: pi?.receiptEmail ?? null,
    receipt_number: null,
    receipt_url: `https://pay.stripe.com/receipts/payment/stand-in/${ch.id}`,
    refunded: ch.amountRefunded >= ch.amount && ch.amount > 0,
    refunds: {
      object: "list",
      data: refunds.map(refundObject),
      has_more: false,
      url: `/v1/charges/${ch.id}/refunds`,
    },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: pi?.statementDescriptor ?? null,
    statement_descriptor_suffix: pi?.statementDescriptorSuffix ?? null,
    status: ch.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(re: RefundRecord): Obj {
  return {
    id: re.id,
    object: "refund",
    amount: re.amount,
    balance_transaction: `txn_${re.id.slice(3)}`,
    charge: re.charge,
    created: re.created,
    currency: re.currency,
    customer: null,
    customer_account: null,
    destination_details: { card: { type: "refund" }, type: "card" },
    metadata: { ...re.metadata },
    payment_intent: re.paymentIntent,
    payment_method: null,
    reason: re.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: re.status,
    transfer_reversal: null,
  };
}

export function disputeObject(dp: DisputeRecord, state: StandInState): Obj {
  const charge = state.charges.get(dp.charge);
  const pm = charge ? state.paymentMethods.get(charge.paymentMethod) : undefined;
  const evidenceFields = [
    "access_activity_log",
    "billing_address",
    "cancellation_policy",
    "cancellation_policy_disclosure",
    "cancellation_rebuttal",
    "customer_communication",
    "customer_email_address",
    "customer_name",
    "customer_purchase_ip",
    "customer_signature",
    "duplicate_charge_documentation",
    "duplicate_charge_explanation",
    "duplicate_charge_id",
    "product_description",
    "receipt",
    "refund_policy",
    "refund_policy_disclosure",
    "refund_refusal_explanation",
    "service_date",
    "service_documentation",
    "shipping_address",
    "shipping_carrier",
    "shipping_date",
    "shipping_documentation",
    "shipping_tracking_number",
    "uncategorized_file",
    "uncategorized_text",
  ];
  return {
    id: dp.id,
    object: "dispute",
    amount: dp.amount,
    balance_transactions: [],
    charge: dp.charge,
    created: dp.created,
    currency: dp.currency,
    enhanced_eligibility_types: [],
    evidence: { ...Object.fromEntries(evidenceFields.map((f) => [f, null])), enhanced_evidence: {} },
    evidence_details: {
      due_by: dp.created + 7 * 24 * 3600,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: dp.paymentIntent,
    payment_method_details: {
      card: {
        brand: pm?.card.brand ?? "visa",
        case_type: "chargeback",
        network_reason_code: "10.4",
        network: pm?.card.brand ?? "visa",
      },
      type: "card",
    },
    reason: dp.reason,
    status: dp.status,
  };
}

export const listObject = (url: string, data: unknown[], hasMore: boolean): Obj => ({
  object: "list",
  data,
  has_more: hasMore,
  url,
});
