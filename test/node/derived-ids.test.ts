/**
 * Issue 10 finding 2 (no public secret): the id secret never falls back to a value built
 * from the public origin, and derived ids mix in the creating platform.
 */
import { describe, expect, it } from "vitest";
import { merchantConfig } from "../../src/config";
import { derivedId, isIssuedId } from "../../src/lib/ids";
import { StoreMisconfigured } from "../../src/lib/store-misconfigured";

describe("the id secret", () => {
  it("a store without ID_SIGNING_KEY refuses to run instead of signing with its origin", () => {
    const vars = { MERCHANT_ORIGIN: "https://shop.example.com" };
    expect(() => merchantConfig(vars)).toThrow(StoreMisconfigured);
    expect(() => merchantConfig({ ...vars })).toThrow(/ID_SIGNING_KEY/);
  });

  it("with it, the secret is the key itself", () => {
    expect(merchantConfig({ ID_SIGNING_KEY: "s3cret" }).idSecret).toBe("s3cret");
  });

  it("an empty secret signs nothing", async () => {
    await expect(derivedId("chk", "", "https://a.example/p", "seed")).rejects.toThrow(/ID_SIGNING_KEY/);
  });
});

describe("derived ids", () => {
  const secret = "test-secret";

  it("the same seed under two platforms gives two unrelated ids, both issued by the store", async () => {
    const a = await derivedId("chk", secret, "https://a.example/profile.json", "cart\ncart_x\n0");
    const b = await derivedId("chk", secret, "https://b.example/profile.json", "cart\ncart_x\n0");
    expect(a).not.toBe(b);
    expect(await isIssuedId("chk", secret, a)).toBe(true);
    expect(await isIssuedId("chk", secret, b)).toBe(true);
    expect(await derivedId("chk", secret, "https://a.example/profile.json", "cart\ncart_x\n0")).toBe(a);
  });

  it("platform and seed cannot be shifted into each other", async () => {
    const one = await derivedId("ord", secret, "https://a.example/p\nx", "y");
    const two = await derivedId("ord", secret, "https://a.example/p", "x\ny");
    expect(one).not.toBe(two);
  });

  it("a different secret derives a different id (nothing computable without it)", async () => {
    const mine = await derivedId("cart", secret, "https://a.example/p", "k");
    expect(await derivedId("cart", "another", "https://a.example/p", "k")).not.toBe(mine);
    expect(await isIssuedId("cart", "another", mine)).toBe(false);
  });
});
