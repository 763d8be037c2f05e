/**
 * The 2026-04-08 leaf profile (/.well-known/ucp-profiles/2026-04-08): complete in itself,
 * exactly what the store published while 2026-04-08 was its only version. Its keys are that
 * version's top-level `signing_keys[]`; a leaf never names other versions (overview §Initial
 * Service and Capability Discovery).
 */
import type { MerchantConfig } from "../config";
import { paymentHandlers } from "../payment/store-processor";
import { businessCapabilities } from "./capabilities";
import { shoppingServices } from "./discovery-services";
import { LEGACY_VERSION } from "./versions";

export function legacyProfile(config: MerchantConfig, signingKeys: readonly JsonWebKey[]) {
  return {
    ucp: {
      version: LEGACY_VERSION,
      services: shoppingServices(config, LEGACY_VERSION),
      capabilities: businessCapabilities(LEGACY_VERSION),
      // Only handlers the store can honour; in test mode the test handler's config says test_mode.
      payment_handlers: paymentHandlers(config),
    },
    ...(signingKeys.length > 0 ? { signing_keys: signingKeys } : {}),
  };
}
