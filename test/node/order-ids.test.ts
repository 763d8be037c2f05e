/**
 * Issue 29: an order placed since lives in its checkout's object, so its id names the
 * checkout (src/lib/ids.ts orderIdIn / orderHome), and orders placed before keep theirs.
 */
import { describe, expect, it } from "vitest";
import { derivedId, isIssuedId, newId, orderHome, orderIdIn } from "../../src/lib/ids";

const secret = "test-secret";

describe("order ids", () => {
  it("an order's id leads back to the session that placed it, and only with the store's secret", async () => {
    const checkout = await newId("chk", secret);
    const order = await orderIdIn(secret, checkout);
    expect(order).toMatch(/^ord_[A-Za-z0-9_-]{32}$/);
    expect(await orderIdIn(secret, checkout)).toBe(order);
    expect(await orderHome(secret, order)).toEqual({ checkout });
    // Another store's secret issued neither.
    expect(await orderHome("other-secret", order)).toBeUndefined();
    // Not a checkout id, though it carries the same 128 bits.
    expect(await isIssuedId("chk", secret, order.replace(/^ord_/, "chk_"))).toBe(false);
  });

  it("an order placed before (derived from owner and session) is its own object's", async () => {
    const checkout = await newId("chk", secret);
    const earlier = await derivedId("ord", secret, "https://a.example/profile.json", checkout);
    expect(await orderHome(secret, earlier)).toBe("own");
    expect(earlier).not.toBe(await orderIdIn(secret, checkout));
  });

  it("anything else is no order: a changed character, another kind, junk", async () => {
    const order = await orderIdIn(secret, await newId("chk", secret));
    const flipped = `${order.slice(0, 10)}${order[10] === "A" ? "B" : "A"}${order.slice(11)}`;
    for (const id of [flipped, await newId("crt", secret), "ord_", "ord_x", `${order}x`, ""]) {
      expect(await orderHome(secret, id), id).toBeUndefined();
    }
    await expect(orderIdIn(secret, "chk_nope")).rejects.toThrow(/not a checkout id/);
  });
});
