import { describe, expect, it } from "vitest";
import { checkContentDigest, contentDigest } from "../../../src/auth/content-digest";

// RFC 9530 §B.1 example body and its published digests.
const BODY = '{"hello": "world"}';
const SHA256 = "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:";
const SHA512 = "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:";
const bytes = (s: string) => new TextEncoder().encode(s);

describe("contentDigest", () => {
  it("matches the RFC 9530 example for strings and bytes", async () => {
    expect(await contentDigest(BODY)).toBe(SHA256);
    expect(await contentDigest(bytes(BODY))).toBe(SHA256);
  });

  it("hashes the empty body", async () => {
    expect(await contentDigest("")).toBe("sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:");
  });
});

describe("checkContentDigest", () => {
  it("accepts a matching sha-256 and ignores other algorithms", async () => {
    expect(await checkContentDigest(SHA256, bytes(BODY))).toBe("ok");
    expect(await checkContentDigest(`${SHA512}, ${SHA256}`, bytes(BODY))).toBe("ok");
    expect(await checkContentDigest(`${SHA256}, md5=:AAAA:`, bytes(BODY))).toBe("ok");
  });

  it("reports a different body as a mismatch", async () => {
    expect(await checkContentDigest(SHA256, bytes(`${BODY} `))).toBe("mismatch");
    expect(await checkContentDigest("sha-256=:AAAA:", bytes(BODY))).toBe("mismatch");
  });

  it("reports missing, unparseable and sha-256-less headers", async () => {
    expect(await checkContentDigest(null, bytes(BODY))).toBe("missing");
    expect(await checkContentDigest("  ", bytes(BODY))).toBe("missing");
    expect(await checkContentDigest("sha-256=X48E9q", bytes(BODY))).toBe("mismatch");
    expect(await checkContentDigest(SHA512, bytes(BODY))).toBe("unsupported");
  });
});
