/**
 * The order index's "refunded" (the console's list and dashboard) is the money that actually
 * went back: a refund the processor reported failed, and a dispute the merchant won, returned
 * nothing (issue 24 review: the index summed every negative adjustment, failed ones included).
 */
import { describe, expect, it } from "vitest";
import { indexEntry } from "../../src/order/index-entry";
import type { Adjustment, OrderState } from "../../src/order/order-state";

const money = (amount: number) => [{ type: "total", amount }];
const adjustment = (id: string, type: string, status: Adjustment["status"], amount: number): Adjustment => ({
  id,
  type,
  occurred_at: "2026-11-27T00:00:00Z",
  status,
  totals: money(amount),
});

const order = (adjustments: Adjustment[]) =>
  ({
    id: "ord_1",
    checkout_id: "chk_1",
    permalink_url: "https://shop.example.com/orders/x",
    currency: "USD",
    line_items: [],
    totals: money(5000),
    expectations: [],
    events: [],
    adjustments,
    owner: "https://agent.test/p.json",
    created_at: 0,
  }) as unknown as OrderState;

describe("indexEntry's refunded", () => {
  it("counts completed and pending money back, not a failed refund or a won dispute", () => {
    const entry = indexEntry(
      order([
        adjustment("a1", "refund", "completed", -1000),
        adjustment("a2", "refund", "pending", -500),
        adjustment("a3", "refund", "failed", -700),
        adjustment("a4", "dispute", "failed", -5000),
      ]),
      { failures: 0, lastFailureAt: null },
    );
    expect(entry.refunded).toBe(1500);
  });
});
