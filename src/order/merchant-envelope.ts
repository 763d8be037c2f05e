/**
 * The `ucp` envelope for order payloads the merchant sends unasked (webhooks) or answers
 * without negotiation (admin): the order capability alone (spec-digest §7.5).
 */
import { CAPABILITY, UCP_VERSION } from "../ucp/capabilities";

export const ORDER_ONLY_ENVELOPE = {
  version: UCP_VERSION,
  status: "success",
  capabilities: { [CAPABILITY.order]: [{ version: UCP_VERSION }] },
} as const;
