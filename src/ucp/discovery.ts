/**
 * The business profile served at /.well-known/ucp, derived from the merchant config and
 * the capability registry, with the merchant's public signing keys (signing-keys.json) at
 * the top level where the profile schema puts them. scripts/build-discovery.ts writes it to
 * public/; a test checks the committed file is current.
 */
import type { MerchantConfig } from "../config";
import { paymentHandlers } from "../payment/store-processor";
import { businessCapabilities, SHOPPING_SERVICE, serviceDocuments, UCP_VERSION } from "./capabilities";

/**
 * The REST binding's base path (src/rest/): the OpenAPI document's `servers` default
 * (`https://merchant.example.com/ucp`), so its paths sit beside /ucp/mcp.
 */
export const REST_PATH = "/ucp";

export function discoveryProfile(config: MerchantConfig, signingKeys: readonly JsonWebKey[] = []) {
  const docs = serviceDocuments(UCP_VERSION);
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        [SHOPPING_SERVICE]: [
          {
            version: UCP_VERSION,
            spec: docs.spec,
            transport: "mcp",
            schema: docs.mcp,
            endpoint: config.mcpEndpoint,
          },
          {
            version: UCP_VERSION,
            spec: docs.spec,
            transport: "rest",
            schema: docs.rest,
            endpoint: `${config.origin}${REST_PATH}`,
          },
        ],
      },
      capabilities: businessCapabilities(UCP_VERSION),
      // Only handlers the store can honour; in test mode the test handler's config says test_mode.
      payment_handlers: paymentHandlers(config),
    },
    ...(signingKeys.length > 0 ? { signing_keys: signingKeys } : {}),
  };
}

export function discoveryDocument(config: MerchantConfig, signingKeys: readonly JsonWebKey[] = []): string {
  return `${JSON.stringify(discoveryProfile(config, signingKeys), null, 2)}\n`;
}
