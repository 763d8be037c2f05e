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

/** dev.ucp.shopping.permalink (2026-08-25 only) and the path of its endpoint on the store's origin. */
export const PERMALINK = "dev.ucp.shopping.permalink";
export const PERMALINK_PATH = "/buy";

const V1 = LEGACY_VERSION;
const V2 = CURRENT_VERSION;

/**
 * One row per capability: its schema file, and per version the spec page (absent: not offered
 * at that version), `extends` and `config`. 2026-04-08 requires `spec` and `schema` on every
 * entry; 2026-08-25 requires `schema` (capability.json business_schema) and its doc paths
 * moved under shopping/ (#723); `spec` is kept because agents read it.
 */
interface Offer {
  readonly name: string;
  readonly schema: string;
  readonly page: Partial<Record<UcpVersion, string>>;
  readonly extends?: Partial<Record<UcpVersion, string | readonly string[]>>;
  readonly config?: Partial<Record<UcpVersion, Readonly<Record<string, unknown>>>>;
}

const both = <T>(value: T): Record<UcpVersion, T> => ({ [V1]: value, [V2]: value });

const OFFERS: readonly Offer[] = [
  {
    name: CAPABILITY.catalogSearch,
    schema: "catalog_search",
    page: { [V1]: "catalog/search", [V2]: "shopping/catalog/search" },
  },
  {
    name: CAPABILITY.catalogLookup,
    schema: "catalog_lookup",
    page: { [V1]: "catalog/lookup", [V2]: "shopping/catalog/lookup" },
  },
  { name: CAPABILITY.cart, schema: "cart", page: { [V1]: "cart", [V2]: "shopping/cart" } },
  { name: CAPABILITY.checkout, schema: "checkout", page: { [V1]: "checkout", [V2]: "shopping/checkout" } },
  { name: CAPABILITY.order, schema: "order", page: { [V1]: "order", [V2]: "shopping/order" } },
  {
    name: CAPABILITY.fulfillment,
    schema: "fulfillment",
    page: both("fulfillment"),
    // 2026-08-25 also extends catalog (fulfillment options on search and lookup results).
    extends: {
      [V1]: CAPABILITY.checkout,
      [V2]: [CAPABILITY.checkout, CAPABILITY.catalogSearch, CAPABILITY.catalogLookup],
    },
    // One shipping destination per checkout, in each version's words.
    config: { [V1]: { allows_multi_destination: { shipping: false } }, [V2]: { multi_destination: [] } },
  },
  {
    name: CAPABILITY.discount,
    schema: "discount",
    page: both("discount"),
    extends: both([CAPABILITY.checkout, CAPABILITY.cart]),
  },
  {
    name: CAPABILITY.buyerConsent,
    schema: "buyer_consent",
    page: both("buyer-consent"),
    extends: both(CAPABILITY.checkout),
  },
  {
    name: CAPABILITY.paymentAuthentication,
    schema: "payment_authentication",
    page: { [V2]: "payment/authentication" },
    extends: { [V2]: CAPABILITY.checkout },
  },
  // The browser route of src/pages/permalink-page.ts; businessCapabilitiesAt() makes the endpoint absolute.
  { name: PERMALINK, schema: "permalink", page: { [V2]: "permalink" }, config: { [V2]: { endpoint: PERMALINK_PATH } } },
];

function registryAt(version: UcpVersion): CapabilityRegistry {
  const registry: Record<string, CapabilityEntry[]> = {};
  for (const offer of OFFERS) {
    const page = offer.page[version];
    if (page === undefined) continue;
    const parents = offer.extends?.[version];
    const config = offer.config?.[version];
    registry[offer.name] = [
      {
        version,
        spec: `https://ucp.dev/${version}/specification/${page}`,
        schema: `https://ucp.dev/${version}/schemas/shopping/${offer.schema}.json`,
        ...(parents === undefined ? {} : { extends: parents }),
        ...(config === undefined ? {} : { config }),
      },
    ];
  }
  return registry;
}

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
  [CURRENT_VERSION]: registryAt(CURRENT_VERSION),
  [LEGACY_VERSION]: registryAt(LEGACY_VERSION),
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
