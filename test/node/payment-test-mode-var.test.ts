/** PAYMENT_TEST_MODE: only an explicit "true" turns test mode on, and a typo is named. */
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { merchantVarProblems } from "../../src/merchant-vars";

describe("PAYMENT_TEST_MODE", () => {
  it("is off unless the merchant says true", () => {
    expect(buildConfig({}).paymentTestMode).toBe(false);
    expect(buildConfig({ PAYMENT_TEST_MODE: "false" }).paymentTestMode).toBe(false);
    expect(buildConfig({ PAYMENT_TEST_MODE: "true" }).paymentTestMode).toBe(true);
    expect(buildConfig({ PAYMENT_TEST_MODE: true }).paymentTestMode).toBe(true);
  });

  it("names a value that is neither true nor false (check:config and the Worker)", () => {
    expect(merchantVarProblems({ PAYMENT_TEST_MODE: "true" })).toEqual([]);
    expect(merchantVarProblems({ PAYMENT_TEST_MODE: false })).toEqual([]);
    expect(merchantVarProblems({ PAYMENT_TEST_MODE: "yes" })).toEqual([
      'PAYMENT_TEST_MODE: expected "true" or "false"',
    ]);
  });
});
