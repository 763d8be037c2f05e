/**
 * The workerd tests of a store whose prices include tax (TAX.prices_include_tax, issue 25):
 * the same Worker and Durable Objects as test/vitest.config.ts, bound with a tax-inclusive
 * TAX (19% VAT in Germany, shipping taxable; California's rate for a region-level case).
 * A configuration of its own because the Durable Objects read their bindings, not a test's env.
 * Files: test/stores/tax-inclusive/*.store-test.ts.
 */
import { workerdStore } from "../../helpers/workerd-store.ts";

export const TAX_INCLUSIVE = {
  prices_include_tax: true,
  shipping_taxable: true,
  rates: [
    { country: "DE", rate_bps: 1900, label: "VAT (19%)" },
    { country: "US", region: "CA", rate_bps: 725, label: "California Sales Tax" },
  ],
};

export default workerdStore({
  bindings: { TAX: JSON.stringify(TAX_INCLUSIVE) },
  include: ["test/stores/tax-inclusive/**/*.store-test.ts"],
});
