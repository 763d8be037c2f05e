/**
 * The `ucp` envelope for order payloads the merchant answers without negotiation (admin):
 * the order capability alone (spec-digest §7.5), at the model's version.
 */
import { UCP_VERSION } from "../ucp/capabilities";
import { orderOnlyEnvelope } from "./webhook-version";

/** Webhooks take theirs from webhook-version.ts, at the receiving platform's version. */
export const ORDER_ONLY_ENVELOPE = orderOnlyEnvelope(UCP_VERSION);
