/** ORDER_NUMBER_START as check:config and the Worker read it, and the allocator's next-number rule. */
import { describe, expect, it } from "vitest";
import { orderNumberStart } from "../../src/config/order-number";
import { merchantVarProblems } from "../../src/merchant-vars";
import { nextOrderNumber, orderLabel } from "../../src/order/order-number";

describe("order numbers", () => {
  it("ORDER_NUMBER_START: a whole number from 1, as a string; anything else is named", () => {
    expect(merchantVarProblems({ ORDER_NUMBER_START: "5000" })).toEqual([]);
    for (const bad of ["0", "-3", "1e3", "10.5", "#1001", "1234567890123"])
      expect(merchantVarProblems({ ORDER_NUMBER_START: bad }), bad).toEqual([
        'ORDER_NUMBER_START: expected a whole number from 1 to 999999999999 as a string, e.g. "1001"',
      ]);
    expect(orderNumberStart(undefined)).toBe(1001);
    expect(orderNumberStart("5000")).toBe(5000);
  });

  it("the next number follows the highest and never goes below the start", () => {
    expect(nextOrderNumber(null, 1001)).toBe(1001);
    expect(nextOrderNumber(1001, 1001)).toBe(1002);
    expect(nextOrderNumber(1002, 5000)).toBe(5000);
    expect(nextOrderNumber(5000, 1)).toBe(5001);
    expect(orderLabel(1001)).toBe("#1001");
  });
});
