import { describe, expect, it } from "vitest";
import { generateSigningKeyPair, importSigningKey, importVerifyKey, publicJwkOf } from "../../../src/auth/signing-keys";

describe("generateSigningKeyPair / importSigningKey / publicJwkOf", () => {
  it.each(["P-256", "P-384"] as const)("produces an importable %s pair", async (crv) => {
    const { privateJwk, publicJwk } = await generateSigningKeyPair("merchant-2026", crv);
    expect(publicJwk).toEqual({
      kid: "merchant-2026",
      kty: "EC",
      crv,
      x: privateJwk.x,
      y: privateJwk.y,
      use: "sig",
      alg: crv === "P-256" ? "ES256" : "ES384",
    });
    expect(publicJwk).not.toHaveProperty("d");

    const imported = await importSigningKey(JSON.stringify(privateJwk));
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.value.kid).toBe("merchant-2026");
    expect(imported.value.alg).toBe(publicJwk.alg);
    expect(imported.value.publicJwk).toEqual(publicJwk);
    expect(publicJwkOf(privateJwk)).toEqual({ ok: true, value: publicJwk });

    const verify = await importVerifyKey(publicJwk);
    expect(verify.ok && verify.value.signatureBytes).toBe(crv === "P-256" ? 64 : 96);
  });

  it("refuses private keys without kid or d, and invalid JSON without quoting it", async () => {
    const { privateJwk } = await generateSigningKeyPair("k");
    const { kid: _kid, ...noKid } = privateJwk;
    const { d: _d, ...noD } = privateJwk;
    for (const json of [JSON.stringify(noKid), JSON.stringify(noD), `{"d":"${privateJwk.d}"`]) {
      const result = await importSigningKey(json);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.content).not.toContain(privateJwk.d);
    }
  });
});

describe("importVerifyKey", () => {
  it("caches the imported key per key material", async () => {
    const { publicJwk } = await generateSigningKeyPair("k");
    const a = await importVerifyKey(publicJwk);
    const b = await importVerifyKey({ ...publicJwk });
    expect(a.ok && b.ok && a.value.key === b.value.key).toBe(true);
  });

  it.each([
    ["RSA", { kty: "RSA", kid: "r", n: "AQAB", e: "AQAB" }],
    ["OKP Ed25519", { kty: "OKP", kid: "o", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }],
    ["EC P-521", { kty: "EC", kid: "p", crv: "P-521", x: "A".repeat(88), y: "A".repeat(88) }],
    ["EC without y", { kty: "EC", kid: "e", crv: "P-256", x: "A".repeat(43) }],
    ["EC off the curve", { kty: "EC", kid: "e", crv: "P-256", x: "A".repeat(43), y: "A".repeat(43) }],
    ["EC with a mismatched alg", { kty: "EC", crv: "P-256", alg: "ES384", x: "A".repeat(43), y: "A".repeat(43) }],
    ["an encryption key", { kty: "EC", crv: "P-256", use: "enc", x: "A".repeat(43), y: "A".repeat(43) }],
  ])("rejects %s as algorithm_unsupported", async (_name, jwk) => {
    const result = await importVerifyKey(jwk as JsonWebKey);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("algorithm_unsupported");
  });

  it("accepts the spec's example ES256 key (RFC 9421 B.1.3 key)", async () => {
    const result = await importVerifyKey({
      kty: "EC",
      crv: "P-256",
      x: "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA",
      y: "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0",
      alg: "ES256",
      use: "sig",
    });
    expect(result.ok && result.value.alg).toBe("ES256");
  });
});
