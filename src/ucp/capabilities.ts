/**
 * The capability registry: what this server implements. Discovery, negotiation and the
 * tool list are all derived from it, so adding a capability here is the one switch.
 */
export const UCP_VERSION = "2026-04-08";

const SPEC_BASE = `https://ucp.dev/${UCP_VERSION}/specification`;
const SCHEMA_BASE = `https://ucp.dev/${UCP_VERSION}/schemas/shopping`;

export const CAPABILITY = {
  catalogSearch: "dev.ucp.shopping.catalog.search",
  catalogLookup: "dev.ucp.shopping.catalog.lookup",
  cart: "dev.ucp.shopping.cart",
  checkout: "dev.ucp.shopping.checkout",
  order: "dev.ucp.shopping.order",
  fulfillment: "dev.ucp.shopping.fulfillment",
  discount: "dev.ucp.shopping.discount",
  buyerConsent: "dev.ucp.shopping.buyer_consent",
} as const;

export type CapabilityName = (typeof CAPABILITY)[keyof typeof CAPABILITY];

export interface CapabilityEntry {
  readonly version: string;
  readonly spec?: string;
  readonly schema?: string;
  readonly extends?: string | readonly string[];
  readonly config?: Readonly<Record<string, unknown>>;
}

export type CapabilityRegistry = Readonly<Record<string, readonly CapabilityEntry[]>>;

/** Our business capabilities with the `spec`/`schema` URLs the spec requires on each. */
export const BUSINESS_CAPABILITIES: CapabilityRegistry = {
  [CAPABILITY.catalogSearch]: [
    {
      version: UCP_VERSION,
      spec: `${SPEC_BASE}/catalog/search`,
      schema: `${SCHEMA_BASE}/catalog_search.json`,
    },
  ],
  [CAPABILITY.catalogLookup]: [
    {
      version: UCP_VERSION,
      spec: `${SPEC_BASE}/catalog/lookup`,
      schema: `${SCHEMA_BASE}/catalog_lookup.json`,
    },
  ],
  [CAPABILITY.cart]: [
    {
      version: UCP_VERSION,
      spec: `${SPEC_BASE}/cart`,
      schema: `${SCHEMA_BASE}/cart.json`,
    },
  ],
  [CAPABILITY.checkout]: [
    { version: UCP_VERSION, spec: `${SPEC_BASE}/checkout`, schema: `${SCHEMA_BASE}/checkout.json` },
  ],
  [CAPABILITY.order]: [{ version: UCP_VERSION, spec: `${SPEC_BASE}/order`, schema: `${SCHEMA_BASE}/order.json` }],
  [CAPABILITY.fulfillment]: [
    {
      version: UCP_VERSION,
      spec: `${SPEC_BASE}/fulfillment`,
      schema: `${SCHEMA_BASE}/fulfillment.json`,
      extends: CAPABILITY.checkout,
      config: { allows_multi_destination: { shipping: false } },
    },
  ],
  [CAPABILITY.discount]: [
    {
      version: UCP_VERSION,
      spec: `${SPEC_BASE}/discount`,
      schema: `${SCHEMA_BASE}/discount.json`,
      extends: [CAPABILITY.checkout, CAPABILITY.cart],
    },
  ],
  [CAPABILITY.buyerConsent]: [
    {
      version: UCP_VERSION,
      spec: `${SPEC_BASE}/buyer-consent`,
      schema: `${SCHEMA_BASE}/buyer_consent.json`,
      extends: CAPABILITY.checkout,
    },
  ],
};

export const SHOPPING_SERVICE = "dev.ucp.shopping";
export const SERVICE_SPEC = `${SPEC_BASE}/overview`;
export const MCP_SERVICE_SCHEMA = `https://ucp.dev/${UCP_VERSION}/services/shopping/mcp.openrpc.json`;
