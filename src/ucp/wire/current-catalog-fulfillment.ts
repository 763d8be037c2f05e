/**
 * Fulfillment on catalog at 2026-08-25 (fulfillment.md §Catalog Discovery, §Location Context;
 * fulfillment.json#/$defs/catalog_fulfillment): with the fulfillment extension active for a
 * catalog answer, every variant says how it can be fulfilled. This store ships only, by the
 * zones of its shipping settings, so each variant has one `shipping` method.
 *
 * - Where to: `filters.fulfills_to` when the request has it (a MUST: it wins over `context`
 *   for destination and availability), else `context`. Only the country decides a zone. The
 *   store has no Business Locations, so a `location` names nothing here and resolves nothing.
 * - With a country the method lists that zone's options (id, title, description: the ids
 *   checkout accepts as `selected_option_id`) and is unavailable where no zone ships. Without
 *   one it lists no options: the zones' options differ by country, so none is representative.
 * - Shipping is store-wide, so the filters restrict all results or none: `filters.methods`
 *   without `shipping`, or a destination no zone serves, leaves search and lookup empty,
 *   with an info message saying why. get_product keeps its product (its schema requires one)
 *   with the method reported unavailable.
 */
import { shippingOptions } from "../../checkout/fulfillment";
import { countryCode } from "../../lib/geo/places";
import type { Json, WireContext } from "./tool-wire";

interface CatalogOption {
  readonly id: string;
  readonly title: string;
  readonly description?: { plain: string };
}

/** What the request asks of fulfillment, resolved against the store's shipping zones. */
export interface ShippingScope {
  /** `filters.methods` allows shipping (absent: every method). */
  readonly wanted: boolean;
  /** true/false: a destination the zones do/do not serve; undefined: no destination resolved. */
  readonly ships: boolean | undefined;
  readonly options: readonly CatalogOption[];
}

export function shippingScope(context: WireContext): ShippingScope {
  const catalog = asObject(context.request?.catalog);
  const filters = asObject(catalog?.filters);
  const methods = Array.isArray(filters?.methods) ? filters.methods : undefined;
  const wanted = methods === undefined || methods.includes("shipping");
  const fulfillsTo = asObject(filters?.fulfills_to);
  const place = fulfillsTo ?? asObject(catalog?.context);
  const written = typeof place?.address_country === "string" ? place.address_country : undefined;
  const country = written === undefined ? undefined : countryCode(written);
  if (!wanted || country === undefined || !context.commerce) return { wanted, ships: undefined, options: [] };
  const zone = shippingOptions(context.commerce(), { address_country: country }, 0, false, "$");
  if (!zone.ok) return { wanted, ships: false, options: [] };
  const options = zone.options.map((o) => ({
    id: o.id,
    title: o.title,
    ...(o.description ? { description: { plain: o.description } } : {}),
  }));
  return { wanted, ships: true, options };
}

/** Whether the request's fulfillment filters leave no result at all. */
export function excludesEverything(scope: ShippingScope): boolean {
  return !scope.wanted || scope.ships === false;
}

/** Why the filters left nothing, as an info message. */
export function nothingFulfillable(scope: ShippingScope): Json {
  const content = !scope.wanted
    ? "This store only ships; no item is available by the requested fulfillment methods."
    : "This store does not ship to the requested destination.";
  return { type: "info", code: "fulfillment_unavailable", content };
}

/** A product with each variant's `fulfillment` added. */
export function withVariantFulfillment(product: unknown, scope: ShippingScope): unknown {
  const p = asObject(product);
  if (!p || !Array.isArray(p.variants)) return product;
  return { ...p, variants: p.variants.map((v) => variantWith(v, scope)) };
}

function variantWith(variant: unknown, scope: ShippingScope): unknown {
  const v = asObject(variant);
  if (!v) return variant;
  if (!scope.wanted) return { ...v, fulfillment: { methods: [] } };
  const own = asObject(v.availability);
  const purchasable = own?.available !== false;
  const available = purchasable && scope.ships !== false;
  const status = available && typeof own?.status === "string" ? { status: own.status } : {};
  const method = {
    type: "shipping",
    availability: { available, ...status },
    ...(scope.ships && scope.options.length > 0 ? { options: scope.options } : {}),
  };
  return { ...v, fulfillment: { methods: [method] } };
}

function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}
