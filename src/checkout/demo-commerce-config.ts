/**
 * The demo store's commerce vars, in the shape wrangler.toml [vars] delivers them (TOML
 * tables). Amounts are USD cents. Data only: parse it with `parseCommerceConfig`.
 */
import type { CommerceVars } from "./commerce-config";

export const DEMO_COMMERCE_CONFIG = {
  SHIPPING: {
    free_shipping_threshold: 7500,
    zones: [
      {
        countries: ["US"],
        options: [
          { id: "standard", title: "Standard Shipping", amount: 500, carrier: "USPS", min_days: 5, max_days: 7 },
          { id: "express", title: "Express Shipping", amount: 1500, carrier: "UPS", min_days: 2, max_days: 3 },
        ],
      },
      {
        countries: ["CA"],
        options: [
          {
            id: "standard",
            title: "Standard Shipping",
            amount: 1200,
            carrier: "Canada Post",
            min_days: 7,
            max_days: 10,
          },
          { id: "express", title: "Express Shipping", amount: 2500, carrier: "UPS", min_days: 3, max_days: 5 },
        ],
      },
      {
        countries: ["*"],
        options: [
          {
            id: "international",
            title: "International Shipping",
            amount: 2500,
            carrier: "DHL",
            min_days: 10,
            max_days: 20,
            free_eligible: false,
          },
          {
            id: "international-express",
            title: "International Express Shipping",
            amount: 4500,
            carrier: "DHL Express",
            min_days: 3,
            max_days: 6,
            free_eligible: false,
          },
        ],
      },
    ],
  },
  TAX: {
    shipping_taxable: false,
    rates: [
      { country: "US", region: "CA", rate_bps: 725, label: "California Sales Tax" },
      { country: "US", region: "NY", rate_bps: 400, label: "New York Sales Tax" },
      { country: "CA", rate_bps: 500, label: "GST" },
      { country: "CA", region: "ON", rate_bps: 1300, label: "HST" },
      { country: "CA", region: "BC", rate_bps: 500, label: "GST" },
      { country: "CA", region: "BC", rate_bps: 700, label: "PST" },
      { country: "DE", rate_bps: 1900, label: "VAT (19%)" },
      { country: "FR", rate_bps: 2000, label: "TVA (20%)" },
      { country: "GB", rate_bps: 2000, label: "VAT (20%)" },
    ],
  },
  DISCOUNTS: [
    { code: "SAVE10", title: "10% off your order", type: "percentage", value: 10 },
    { code: "WELCOME5", title: "$5 off orders of $25 or more", type: "fixed_amount", value: 500, min_subtotal: 2500 },
    { code: "FREESHIP", title: "Free shipping", type: "free_shipping" },
    {
      code: "EXPIRED20",
      title: "20% off the holiday sale",
      type: "percentage",
      value: 20,
      starts_at: "2024-11-25T00:00:00Z",
      expires_at: "2025-01-01T00:00:00Z",
    },
  ],
} as const satisfies CommerceVars;
