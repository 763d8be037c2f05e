/**
 * Shipping options for a destination (types/fulfillment_option.json): zone lookup by the
 * normalized country ("Germany", "DEU" and "DE" are one country), free
 * shipping by threshold or code, cheapest first. Pure; groups, methods and the selection
 * belong to the checkout.
 */
import type { Total } from "../../schemas/ucp/cart";
import type { Message } from "../../schemas/ucp/common";
import { countryCode } from "../lib/geo/places";
import type { CommerceConfig, ShippingOptionConfig, ShippingZone } from "./commerce-config";

export interface Destination {
  readonly address_country?: string;
  readonly address_region?: string;
  readonly postal_code?: string;
}

export interface FulfillmentOption {
  id: string;
  title: string;
  description?: string;
  carrier?: string;
  totals: Total[];
}

export type ShippingOptionsResult =
  | {
      ok: true;
      options: FulfillmentOption[];
      /** Per option id: what the free_shipping code (not the threshold) took off, for `finalizeFreeShipping`. */
      codeSavings: Record<string, number>;
    }
  | { ok: false; message: Message };

/**
 * Options for `destination`, cheapest first (ties keep config order). Free-eligible options cost
 * 0 when `merchandiseAfterDiscounts` reaches the threshold or a free_shipping code applies.
 * `path` points at the destination in the caller's document (used in the error message).
 */
export function shippingOptions(
  config: Pick<CommerceConfig, "shipping">,
  destination: Destination,
  merchandiseAfterDiscounts: number,
  freeShippingCode: boolean,
  path: string,
): ShippingOptionsResult {
  const written = destination.address_country?.trim();
  if (!written) {
    const content = "A shipping address needs a country.";
    return {
      ok: false,
      message: {
        type: "error",
        code: "field_required",
        path: `${path}.address_country`,
        content,
        severity: "recoverable",
      },
    };
  }
  const country = countryCode(written);
  if (!country) {
    const content = `"${written}" is not a country we recognize. Use the country's name or ISO code.`;
    return {
      ok: false,
      message: { type: "error", code: "invalid", path: `${path}.address_country`, content, severity: "recoverable" },
    };
  }
  const zone = zoneFor(config.shipping.zones, country);
  if (!zone) {
    const content = `We don't ship to ${country}. Choose a destination in another country.`;
    return {
      ok: false,
      message: { type: "error", code: "address_undeliverable", path, content, severity: "recoverable" },
    };
  }
  const threshold = config.shipping.free_shipping_threshold;
  const byThreshold = threshold !== undefined && merchandiseAfterDiscounts >= threshold;
  const priced = zone.options.map((option, index) => {
    const free = option.free_eligible && (byThreshold || freeShippingCode);
    const saved = option.free_eligible && freeShippingCode && !byThreshold ? option.amount : 0;
    return { option, index, amount: free ? 0 : option.amount, saved };
  });
  priced.sort((a, b) => a.amount - b.amount || a.option.amount - b.option.amount || a.index - b.index);
  return {
    ok: true,
    options: priced.map((p) => toOption(p.option, p.amount)),
    codeSavings: Object.fromEntries(priced.map((p) => [p.option.id, p.saved])),
  };
}

/** The zone listing the country, else the "*" zone. */
function zoneFor(zones: readonly ShippingZone[], country: string): ShippingZone | undefined {
  return zones.find((z) => z.countries.includes(country)) ?? zones.find((z) => z.countries.includes("*"));
}

function toOption(option: ShippingOptionConfig, amount: number): FulfillmentOption {
  const description = option.description ?? describe(option);
  return {
    id: option.id,
    title: option.title,
    ...(description ? { description } : {}),
    ...(option.carrier ? { carrier: option.carrier } : {}),
    totals: [{ type: "total", amount }],
  };
}

/** Timing and carrier, never title or price (UCP fulfillment: description MUST NOT repeat them). */
function describe(option: ShippingOptionConfig): string | undefined {
  const { min_days: min, max_days: max, carrier } = option;
  const via = carrier ? ` via ${carrier}` : "";
  if (min !== undefined && max !== undefined)
    return min === max ? `Arrives in ${days(max)}${via}` : `Arrives in ${min}-${max} business days${via}`;
  if (max !== undefined) return `Arrives within ${days(max)}${via}`;
  if (min !== undefined) return `Arrives in ${days(min)} or more${via}`;
  return carrier ? `Ships via ${carrier}` : undefined;
}

function days(n: number): string {
  return n === 1 ? "1 business day" : `${n} business days`;
}
