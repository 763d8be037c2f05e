/**
 * The business profile served at /.well-known/ucp, derived from the merchant config and
 * the capability registry, with the merchant's public signing keys (signing-keys.json) at
 * the top level where the profile schema puts them. scripts/build-discovery.ts writes it to
 * public/; a test checks the committed file is current.
 */
import type { MerchantConfig } from "../config";
import { paymentHandlers } from "../payment/store-processor";
import { BUSINESS_CAPABILITIES, MCP_SERVICE_SCHEMA, SERVICE_SPEC, SHOPPING_SERVICE, UCP_VERSION } from "./capabilities";

export function discoveryProfile(config: MerchantConfig, signingKeys: readonly JsonWebKey[] = []) {
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        [SHOPPING_SERVICE]: [
          {
            version: UCP_VERSION,
            spec: SERVICE_SPEC,
            transport: "mcp",
            schema: MCP_SERVICE_SCHEMA,
            endpoint: config.mcpEndpoint,
          },
        ],
      },
      capabilities: BUSINESS_CAPABILITIES,
      // Only handlers the store can honour; in test mode the test handler's config says test_mode.
      payment_handlers: paymentHandlers(config),
    },
    ...(signingKeys.length > 0 ? { signing_keys: signingKeys } : {}),
  };
}

export function discoveryDocument(config: MerchantConfig, signingKeys: readonly JsonWebKey[] = []): string {
  return `${JSON.stringify(discoveryProfile(config, signingKeys), null, 2)}\n`;
}
