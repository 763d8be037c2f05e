/**
 * The capability registry: what this server implements, per protocol version. Discovery,
 * negotiation and the tool list are all derived from it, so adding a capability here is the
 * one switch. Every `dev.ucp.*` entry carries its profile's version (2026-08-25 overview
 * §Component Versioning and Release Snapshots): older versions live only in their own
 * registry, published as a `supported_versions` leaf profile, never as extra entries.
 */
import { CURRENT_VERSION, LEGACY_VERSION, MODEL_VERSION, type UcpVersion } from "./versions";

/** The model's version (2026-04-08): code that speaks the model's own shapes names it so. */
export const UCP_VERSION = MODEL_VERSION;

export const CAPABILITY = {
  catalogSearch: "dev.ucp.shopping.catalog.search",
  catalogLookup: "dev.ucp.shopping.catalog.lookup",
  cart: "dev.ucp.shopping.cart",
  checkout: "dev.ucp.shopping.checkout",
  order: "dev.ucp.shopping.order",
  fulfillment: "dev.ucp.shopping.fulfillment",
  discount: "dev.ucp.shopping.discount",
  buyerConsent: "dev.ucp.shopping.buyer_consent",
  /** 2026-08-25 only: 3-D Secure as a checkout Action instead of an escalation (#458). */
  paymentAuthentication: "dev.ucp.shopping.payment_authentication",
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

/** 2026-04-08: `spec` and `schema` on every entry, as that version requires. */
function legacyRegistry(): CapabilityRegistry {
  const v = LEGACY_VERSION;
  const spec = (page: string) => `https://ucp.dev/${v}/specification/${page}`;
  const schema = (file: string) => `https://ucp.dev/${v}/schemas/shopping/${file}.json`;
  return {
    [CAPABILITY.catalogSearch]: [{ version: v, spec: spec("catalog/search"), schema: schema("catalog_search") }],
    [CAPABILITY.catalogLookup]: [{ version: v, spec: spec("catalog/lookup"), schema: schema("catalog_lookup") }],
    [CAPABILITY.cart]: [{ version: v, spec: spec("cart"), schema: schema("cart") }],
    [CAPABILITY.checkout]: [{ version: v, spec: spec("checkout"), schema: schema("checkout") }],
    [CAPABILITY.order]: [{ version: v, spec: spec("order"), schema: schema("order") }],
    [CAPABILITY.fulfillment]: [
      {
        version: v,
        spec: spec("fulfillment"),
        schema: schema("fulfillment"),
        extends: CAPABILITY.checkout,
        config: { allows_multi_destination: { shipping: false } },
      },
    ],
    [CAPABILITY.discount]: [
      {
        version: v,
        spec: spec("discount"),
        schema: schema("discount"),
        extends: [CAPABILITY.checkout, CAPABILITY.cart],
      },
    ],
    [CAPABILITY.buyerConsent]: [
      { version: v, spec: spec("buyer-consent"), schema: schema("buyer_consent"), extends: CAPABILITY.checkout },
    ],
  };
}

/**
 * 2026-08-25: `schema` is what the version requires (capability.json business_schema); `spec`
 * is kept because agents read it. Doc paths moved under shopping/ (#723).
 */
function currentRegistry(): CapabilityRegistry {
  const v = CURRENT_VERSION;
  const spec = (page: string) => `https://ucp.dev/${v}/specification/${page}`;
  const schema = (file: string) => `https://ucp.dev/${v}/schemas/shopping/${file}.json`;
  return {
    [CAPABILITY.catalogSearch]: [
      { version: v, spec: spec("shopping/catalog/search"), schema: schema("catalog_search") },
    ],
    [CAPABILITY.catalogLookup]: [
      { version: v, spec: spec("shopping/catalog/lookup"), schema: schema("catalog_lookup") },
    ],
    [CAPABILITY.cart]: [{ version: v, spec: spec("shopping/cart"), schema: schema("cart") }],
    [CAPABILITY.checkout]: [{ version: v, spec: spec("shopping/checkout"), schema: schema("checkout") }],
    [CAPABILITY.order]: [{ version: v, spec: spec("shopping/order"), schema: schema("order") }],
    [CAPABILITY.fulfillment]: [
      {
        version: v,
        spec: spec("fulfillment"),
        schema: schema("fulfillment"),
        extends: [CAPABILITY.checkout, CAPABILITY.catalogSearch, CAPABILITY.catalogLookup],
        // One shipping destination per checkout: no method type is listed for several.
        config: { multi_destination: [] },
      },
    ],
    [CAPABILITY.discount]: [
      {
        version: v,
        spec: spec("discount"),
        schema: schema("discount"),
        extends: [CAPABILITY.checkout, CAPABILITY.cart],
      },
    ],
    [CAPABILITY.buyerConsent]: [
      { version: v, spec: spec("buyer-consent"), schema: schema("buyer_consent"), extends: CAPABILITY.checkout },
    ],
    [CAPABILITY.paymentAuthentication]: [
      {
        version: v,
        spec: spec("payment/authentication"),
        schema: schema("payment_authentication"),
        extends: CAPABILITY.checkout,
      },
    ],
    // The browser route of src/pages/permalink-page.ts; businessCapabilitiesAt() makes the endpoint absolute.
    [PERMALINK]: [
      { version: v, spec: spec("permalink"), schema: schema("permalink"), config: { endpoint: PERMALINK_PATH } },
    ],
  };
}

/** dev.ucp.shopping.permalink (2026-08-25 only) and the path of its endpoint on the store's origin. */
export const PERMALINK = "dev.ucp.shopping.permalink";
export const PERMALINK_PATH = "/buy";

/**
 * The registry as a profile publishes it for a store at `origin`: the permalink endpoint made
 * absolute. It must be https (permalink.json `endpoint`), so a store served over http (local
 * development) does not advertise the capability; its route still answers.
 */
export function businessCapabilitiesAt(version: UcpVersion, origin: string): CapabilityRegistry {
  const registry = REGISTRIES[version];
  if (!(PERMALINK in registry)) return registry;
  const { [PERMALINK]: entries = [], ...rest } = registry;
  if (!origin.startsWith("https://")) return rest;
  const endpoint = `${origin.replace(/\/+$/, "")}${PERMALINK_PATH}`;
  return { ...rest, [PERMALINK]: entries.map((e) => ({ ...e, config: { ...e.config, endpoint } })) };
}

const REGISTRIES: Readonly<Record<UcpVersion, CapabilityRegistry>> = {
  [CURRENT_VERSION]: currentRegistry(),
  [LEGACY_VERSION]: legacyRegistry(),
};

/** Our business capabilities at one protocol version. */
export function businessCapabilities(version: UcpVersion): CapabilityRegistry {
  return REGISTRIES[version];
}

/** The model's registry: what the buyer pages negotiate with themselves (src/pages/buyer-tools.ts). */
export const BUSINESS_CAPABILITIES: CapabilityRegistry = REGISTRIES[MODEL_VERSION];

export const SHOPPING_SERVICE = "dev.ucp.shopping";

/** The shopping service's description documents at one version. */
export function serviceDocuments(version: UcpVersion) {
  return {
    spec: `https://ucp.dev/${version}/specification/overview`,
    mcp: `https://ucp.dev/${version}/services/shopping/mcp.openrpc.json`,
    rest: `https://ucp.dev/${version}/services/shopping/rest.openapi.json`,
  };
}
