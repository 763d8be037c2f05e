/** Hand-off tokens (src/lib/handoff-token.ts): round trip, expiry, tampering, wrong kind, wrong key. */
import { describe, expect, it } from "vitest";
import { HANDOFF_TTL_MS, handoffUrl, openHandoff, sealHandoff } from "../../src/lib/handoff-token";

const SECRET = "handoff-test-secret";
const NOW = Date.UTC(2026, 10, 23, 12, 30);
const ID = "chk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

describe("hand-off tokens", () => {
  it("round trip: a token opens to its id, of its kind, until its expiry", async () => {
    const token = await sealHandoff(SECRET, "checkout", ID, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).not.toContain(ID.slice(4));
    const opened = await openHandoff(SECRET, "checkout", token, NOW);
    expect(opened).toMatchObject({ ok: true, id: ID });
    // The expiry is now + TTL rounded up to the hour.
    const expiresAt = opened.ok ? opened.expiresAt : 0;
    expect(expiresAt).toBeGreaterThanOrEqual(NOW + HANDOFF_TTL_MS.checkout);
    expect(expiresAt).toBeLessThan(NOW + HANDOFF_TTL_MS.checkout + 3600_000);
  });

  it("the same session within the hour gets the same URL; another session a different one", async () => {
    const a = await sealHandoff(SECRET, "checkout", ID, NOW);
    expect(await sealHandoff(SECRET, "checkout", ID, NOW + 60_000)).toBe(a);
    expect(await sealHandoff(SECRET, "checkout", `${ID.slice(0, -1)}B`, NOW)).not.toBe(a);
  });

  it("tokens remembered by the isolate are only ever another answer's for the same secret, kind, id and hour", async () => {
    const first = await sealHandoff(SECRET, "checkout", ID, NOW);
    // Another secret in between must neither get this token nor leave its own behind.
    const other = await sealHandoff("another-secret", "checkout", ID, NOW);
    expect(other).not.toBe(first);
    expect((await openHandoff(SECRET, "checkout", other, NOW)).ok).toBe(false);
    expect((await openHandoff("another-secret", "checkout", other, NOW)).ok).toBe(true);
    expect(await sealHandoff(SECRET, "checkout", ID, NOW)).toBe(first);
    expect(await sealHandoff(SECRET, "cart", ID, NOW)).not.toBe(first);
    const nextDay = await sealHandoff(SECRET, "checkout", ID, NOW + 24 * 3600_000);
    expect(nextDay).not.toBe(first);
    expect((await openHandoff(SECRET, "checkout", nextDay, NOW + 24 * 3600_000)).ok).toBe(true);
  });

  it("expires", async () => {
    const token = await sealHandoff(SECRET, "cart", ID, NOW, 60_000);
    expect((await openHandoff(SECRET, "cart", token, NOW + 30_000)).ok).toBe(true);
    expect(await openHandoff(SECRET, "cart", token, NOW + 2 * 3600_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("any changed character is refused", async () => {
    const token = await sealHandoff(SECRET, "order", ID, NOW);
    for (const at of [0, 13, Math.floor(token.length / 2), token.length - 1]) {
      const c = token[at] === "A" ? "B" : "A";
      const changed = `${token.slice(0, at)}${c}${token.slice(at + 1)}`;
      const opened = await openHandoff(SECRET, "order", changed, NOW);
      expect(opened.ok, `changed at ${at}`).toBe(false);
    }
    expect(await openHandoff(SECRET, "order", token.slice(0, -4), NOW)).toMatchObject({ ok: false });
    expect(await openHandoff(SECRET, "order", "not a token!", NOW)).toEqual({ ok: false, reason: "malformed" });
  });

  it("a token of another kind, or from another store's key, does not open", async () => {
    const cart = await sealHandoff(SECRET, "cart", ID, NOW);
    expect(await openHandoff(SECRET, "order", cart, NOW)).toEqual({ ok: false, reason: "wrong_kind" });
    expect(await openHandoff("another-store", "cart", cart, NOW)).toEqual({ ok: false, reason: "tampered" });
  });

  it("URLs: /checkout/, /cart/ and /orders/<token>, never the id", async () => {
    const url = await handoffUrl("https://shop.example.com", SECRET, "checkout", ID, NOW);
    expect(url).toMatch(/^https:\/\/shop\.example\.com\/checkout\/[A-Za-z0-9_-]+$/);
    const cart = await handoffUrl("https://shop.example.com", SECRET, "cart", "cart_x", NOW);
    expect(cart).toMatch(/^https:\/\/shop\.example\.com\/cart\/[A-Za-z0-9_-]+$/);
    const order = await handoffUrl("https://shop.example.com", SECRET, "order", "ord_x", NOW);
    expect(order).toMatch(/^https:\/\/shop\.example\.com\/orders\/[A-Za-z0-9_-]+$/);
  });
});
