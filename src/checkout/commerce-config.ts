/**
 * The merchant's commerce settings (shipping zones, tax rates, discount codes), parsed from
 * the SHIPPING / TAX / DISCOUNTS vars, which arrive as JSON strings or as TOML tables.
 * Owns validation and normalization only; pricing lives in the sibling modules.
 */
import * as z from "zod";
import { toJsonPath } from "../lib/json-path";
import { parseUntrustedJson } from "../lib/safe-json";

export interface CommerceVars {
  SHIPPING?: unknown;
  TAX?: unknown;
  DISCOUNTS?: unknown;
}

export type CommerceConfigResult = { ok: true; config: CommerceConfig } | { ok: false; problems: string[] };

const MinorUnits = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Days = z.number().int().min(0).max(365);
const Country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166-1 alpha-2 code, e.g. "US"')
  .transform((c) => c.toUpperCase());
const ZoneCountry = z
  .string()
  .regex(/^([A-Za-z]{2}|\*)$/, 'expected an ISO 3166-1 alpha-2 code, e.g. "US", or "*" for any other country')
  .transform((c) => c.toUpperCase());
const Timestamp = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));

/** `ca`, `CA` and `US-CA` all name California within US: compare regions through this. */
export function regionCode(country: string, region: string): string {
  const upper = region.trim().toUpperCase();
  const prefix = `${country.toUpperCase()}-`;
  return upper.startsWith(prefix) ? upper.slice(prefix.length) : upper;
}

const ShippingOptionSchema = z
  .strictObject({
    id: z.string().min(1).max(64),
    title: z.string().min(1).max(100),
    description: z.string().min(1).max(300).optional(),
    amount: MinorUnits,
    carrier: z.string().min(1).max(100).optional(),
    min_days: Days.optional(),
    max_days: Days.optional(),
    free_eligible: z.boolean().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.min_days !== undefined && o.max_days !== undefined && o.min_days > o.max_days)
      ctx.addIssue({ code: "custom", path: ["min_days"], message: "min_days is greater than max_days" });
    // UCP fulfillment: a description MUST NOT repeat the title or the price.
    if (o.description?.toLowerCase().includes(o.title.toLowerCase()))
      ctx.addIssue({ code: "custom", path: ["description"], message: "description repeats the title" });
    if (o.description && /[$€£¥₹]/.test(o.description))
      ctx.addIssue({ code: "custom", path: ["description"], message: "description states a price" });
  });

const ShippingZoneSchema = z
  .strictObject({
    countries: z.array(ZoneCountry).min(1),
    options: z.array(ShippingOptionSchema).min(1),
  })
  .superRefine((zone, ctx) => {
    for (const i of duplicates(zone.options.map((o) => o.id)))
      ctx.addIssue({ code: "custom", path: ["options", i, "id"], message: "duplicate option id in this zone" });
    // UCP fulfillment: titles MUST distinguish an option from its siblings.
    for (const i of duplicates(zone.options.map((o) => o.title.toLowerCase())))
      ctx.addIssue({ code: "custom", path: ["options", i, "title"], message: "duplicate option title in this zone" });
  })
  .transform((zone) => {
    // Without an explicit free_eligible, only the zone's cheapest option (first on a tie) ships free.
    const lowest = Math.min(...zone.options.map((o) => o.amount));
    const cheapest = zone.options.findIndex((o) => o.amount === lowest);
    const options = zone.options.map((o, i) => ({ ...o, free_eligible: o.free_eligible ?? i === cheapest }));
    return { countries: zone.countries, options };
  });

const ShippingSchema = z
  .strictObject({ free_shipping_threshold: MinorUnits.optional(), zones: z.array(ShippingZoneSchema) })
  .superRefine((shipping, ctx) => {
    const seen = new Set<string>();
    shipping.zones.forEach((zone, zi) => {
      zone.countries.forEach((country, c) => {
        const message = country === "*" ? '"*" is already listed' : `${country} is already listed`;
        if (seen.has(country)) ctx.addIssue({ code: "custom", path: ["zones", zi, "countries", c], message });
        seen.add(country);
      });
    });
  });

const TaxRateSchema = z
  .strictObject({
    country: Country,
    region: z.string().trim().min(1).max(16).optional(),
    rate_bps: z.number().int().min(0).max(10_000),
    label: z.string().min(1).max(100),
  })
  .transform((r) => ({ ...r, ...(r.region === undefined ? {} : { region: regionCode(r.country, r.region) }) }));

const TaxSchema = z
  .strictObject({
    rates: z.array(TaxRateSchema),
    shipping_taxable: z.boolean().default(false),
    // Catalog prices (and shipping amounts) are gross: tax is the part they include (included-tax.ts).
    prices_include_tax: z.boolean().default(false),
  })
  .superRefine((tax, ctx) => {
    const keys = tax.rates.map((r) => `${r.country}|${r.region ?? ""}|${r.label.toLowerCase()}`);
    for (const i of duplicates(keys))
      ctx.addIssue({ code: "custom", path: ["rates", i], message: "duplicate rate label for this country/region" });
  });

const DiscountSchema = z
  .strictObject({
    code: z.string().regex(/^\S{1,64}$/, "expected 1 to 64 characters without spaces"),
    title: z.string().min(1).max(200),
    type: z.enum(["percentage", "fixed_amount", "free_shipping"]),
    value: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    min_subtotal: MinorUnits.optional(),
    starts_at: Timestamp.optional(),
    expires_at: Timestamp.optional(),
  })
  .superRefine((d, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (d.type === "percentage" && (d.value === undefined || d.value > 100))
      issue("value", "a percentage discount needs a value from 1 to 100");
    if (d.type === "fixed_amount" && d.value === undefined) issue("value", "a fixed_amount discount needs a value");
    if (d.type === "free_shipping" && d.value !== undefined) issue("value", "a free_shipping discount takes no value");
    if (d.starts_at !== undefined && d.expires_at !== undefined && d.starts_at >= d.expires_at)
      issue("expires_at", "expires_at is not after starts_at");
  });

const DiscountsSchema = z.array(DiscountSchema).superRefine((list, ctx) => {
  for (const i of duplicates(list.map((d) => d.code.toUpperCase())))
    ctx.addIssue({ code: "custom", path: [i, "code"], message: "duplicate code (codes are case-insensitive)" });
});

export type ShippingConfig = z.output<typeof ShippingSchema>;
export type ShippingZone = ShippingConfig["zones"][number];
export type ShippingOptionConfig = ShippingZone["options"][number];
export type TaxConfig = z.output<typeof TaxSchema>;
export type TaxRate = TaxConfig["rates"][number];
/** `starts_at` / `expires_at` are epoch milliseconds once parsed. */
export type DiscountDefinition = z.output<typeof DiscountSchema>;

export interface CommerceConfig {
  readonly shipping: ShippingConfig;
  readonly tax: TaxConfig;
  readonly discounts: readonly DiscountDefinition[];
}

/**
 * Parses the three vars; each may be absent (no zones, no rates, no codes), a JSON string or
 * an already-parsed value. Problems are named by var and path: `SHIPPING.zones[0].countries[1]: …`.
 */
export function parseCommerceConfig(vars: CommerceVars): CommerceConfigResult {
  const problems: string[] = [];
  const shipping = parseVar("SHIPPING", vars.SHIPPING, ShippingSchema, { zones: [] }, problems);
  const tax = parseVar("TAX", vars.TAX, TaxSchema, { rates: [] }, problems);
  const discounts = parseVar("DISCOUNTS", vars.DISCOUNTS, DiscountsSchema, [], problems);
  if (!shipping || !tax || !discounts) return { ok: false, problems };
  return { ok: true, config: { shipping, tax, discounts } };
}

function parseVar<S extends z.ZodType>(
  name: string,
  raw: unknown,
  schema: S,
  absent: z.input<S>,
  problems: string[],
): z.output<S> | undefined {
  let value: unknown = raw === undefined || raw === "" ? absent : raw;
  if (typeof value === "string") {
    const parsed = parseUntrustedJson(value);
    if (!parsed.ok) {
      problems.push(`${name}: not valid JSON`);
      return undefined;
    }
    value = parsed.value;
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) problems.push(`${toJsonPath(issue.path, name)}: ${issue.message}`);
  return undefined;
}

/** Indexes of values already seen earlier in the list. */
function duplicates(values: readonly string[]): number[] {
  return values.flatMap((v, i) => (values.indexOf(v) < i ? [i] : []));
}

export { DEMO_COMMERCE_CONFIG } from "./demo-commerce-config";
