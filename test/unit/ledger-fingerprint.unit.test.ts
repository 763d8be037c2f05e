/**
 * The idempotency ledger's fingerprint never holds a plain hash over a payment credential (a
 * card number has too little entropy for SHA-256 to hide it: from a review of issue 23, where
 * 2026-08-25 `pan` credentials were hashed as sent), yet a credential still tells two
 * payloads apart, so a key reused with another card is still a conflict.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Hex } from "../../src/lib/canonical-json";
import { ledgerEntry } from "../../src/tools/object-reply";

const payload = (number: string) => ({
  payment: {
    instruments: [
      { id: "i1", handler_id: "h", type: "card", credential: { type: "pan", number, expiry_month: 12, cvc: "123" } },
    ],
  },
});

describe("ledgerEntry", () => {
  it("does not store SHA-256 over the payload with the credential in it", async () => {
    const sent = payload("4242424242424242");
    const entry = await ledgerEntry("complete_checkout", "k1", "chk_1", sent, "secret-a");
    const plain = await sha256Hex(canonicalJson({ op: "complete_checkout", id: "chk_1", payload: sent }));
    expect(entry.hash).not.toBe(plain);
    expect(entry.key).toBe("complete_checkout:k1");
  });

  it("still tells two cards apart, and is stable for the same one", async () => {
    const a = await ledgerEntry("complete_checkout", "k1", "chk_1", payload("4242424242424242"), "s");
    const again = await ledgerEntry("complete_checkout", "k1", "chk_1", payload("4242424242424242"), "s");
    const b = await ledgerEntry("complete_checkout", "k1", "chk_1", payload("4000000000000002"), "s");
    expect(again.hash).toBe(a.hash);
    expect(b.hash).not.toBe(a.hash);
  });

  it("depends on the store's secret only where a credential is", async () => {
    const card = payload("4242424242424242");
    expect((await ledgerEntry("op", "k", "id", card, "s1")).hash).not.toBe(
      (await ledgerEntry("op", "k", "id", card, "s2")).hash,
    );
    const plain = { line_items: [{ item: { id: "v1" }, quantity: 2 }] };
    expect((await ledgerEntry("op", "k", "id", plain, "s1")).hash).toBe(
      (await ledgerEntry("op", "k", "id", plain, "s2")).hash,
    );
  });
});
