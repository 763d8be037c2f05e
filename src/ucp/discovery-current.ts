/**
 * The root profile at /.well-known/ucp: the store's current version (2026-08-25), every
 * `dev.ucp.*` entry at that version, and `supported_versions` naming a leaf profile for each
 * older version the store still speaks (overview §Protocol Version).
 *
 * Keys: `keys[]` is where 2026-08-25 verifiers read them. The same keys are also rendered as
 * `signing_keys[]`, because a 2026-04-08 verifier reads `signing_keys[]` from
 * /.well-known/ucp (its §Key Discovery), which is also the profile our webhooks' UCP-Agent
 * names. Both come from one signing-keys.json, so a retired key leaves both at once
 * (digest §1.5 [Rec], docs/decisions/protocol.md).
 */
import type { MerchantConfig } from "../config";
import { paymentHandlers } from "../payment/store-processor";
import { businessCapabilitiesAt } from "./capabilities";
import { currentHandlers, handlerOrder } from "./discovery-handlers";
import { profilePath } from "./discovery-paths";
import { shoppingServices } from "./discovery-services";
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from "./versions";

export function currentProfile(config: MerchantConfig, signingKeys: readonly JsonWebKey[]) {
  const older = SUPPORTED_VERSIONS.filter((v) => v !== CURRENT_VERSION);
  const handlers = currentHandlers(paymentHandlers(config));
  return {
    ucp: {
      version: CURRENT_VERSION,
      supported_versions: Object.fromEntries(older.map((v) => [v, `${config.origin}${profilePath(v)}`])),
      services: shoppingServices(config, CURRENT_VERSION),
      // The permalink endpoint is absolute, so the registry is read for this origin.
      capabilities: businessCapabilitiesAt(CURRENT_VERSION, config.origin),
      payment_handlers: handlers,
      ...handlerOrder(handlers),
    },
    ...(signingKeys.length > 0 ? { keys: signingKeys, signing_keys: signingKeys } : {}),
  };
}
