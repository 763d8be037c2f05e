/**
 * The business profile served at /.well-known/ucp, derived from the merchant config and
 * the capability registry, with the merchant's public signing keys (signing-keys.json) at
 * the top level where the profile schema puts them. scripts/build-discovery.ts writes it to
 * public/; a test checks the committed file is current.
 */
import type { MerchantConfig } from "../config";
import { paymentHandlers } from "../payment/store-processor";
import { BUSINESS_CAPABILITIES, MCP_SERVICE_SCHEMA, SERVICE_SPEC, SHOPPING_SERVICE, UCP_VERSION } from "./capabilities";

/**
 * The REST binding's base path (src/rest/): the OpenAPI document's `servers` default
 * (`https://merchant.example.com/ucp`), so its paths sit beside /ucp/mcp.
 */
export const REST_PATH = "/ucp";
export const REST_SERVICE_SCHEMA = `https://ucp.dev/${UCP_VERSION}/services/shopping/rest.openapi.json`;

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
          {
            version: UCP_VERSION,
            spec: SERVICE_SPEC,
            transport: "rest",
            schema: REST_SERVICE_SCHEMA,
            endpoint: `${config.origin}${REST_PATH}`,
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
