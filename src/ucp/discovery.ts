/**
 * The business profile served at /.well-known/ucp, derived from the merchant config and
 * the capability registry. scripts/build-discovery.ts writes it to public/; a test checks
 * the committed file is current.
 */
import type { MerchantConfig } from "../config";
import { paymentHandlers } from "../payment/handlers";
import { BUSINESS_CAPABILITIES, MCP_SERVICE_SCHEMA, SERVICE_SPEC, SHOPPING_SERVICE, UCP_VERSION } from "./capabilities";

export function discoveryProfile(config: MerchantConfig) {
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
      payment_handlers: paymentHandlers(config.origin),
    },
  };
}

export function discoveryDocument(config: MerchantConfig): string {
  return `${JSON.stringify(discoveryProfile(config), null, 2)}\n`;
}
