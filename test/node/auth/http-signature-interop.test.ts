import { describe, expect, it } from "vitest";
import { signatureBase, signRequest, verifyRequest } from "../../../src/auth/http-signature";
import { generateSigningKeyPair, importSigningKey } from "../../../src/auth/signing-keys";
import { serializeByteSequence } from "../../../src/auth/structured-fields";

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

describe("signatureBase against published examples", () => {
  it("reproduces the UCP spec's signed MCP request base (spec-digest §10.3) byte for byte", () => {
    const headers = new Headers({
      Host: "business.example.com",
      "Content-Type": "application/json",
      "UCP-Agent": 'profile="https://platform.example/.well-known/ucp"',
      "Idempotency-Key": "550e8400-e29b-41d4-a716-446655440000",
      "Content-Digest": "sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:",
    });
    const components = [
      "@method",
      "@authority",
      "@path",
      "content-digest",
      "content-type",
      "ucp-agent",
      "idempotency-key",
    ];
    const base = signatureBase(
      components,
      { keyid: "platform-2026" },
      { method: "post", url: "https://business.example.com/mcp", headers },
    );
    expect(base).toEqual({
      ok: true,
      value: `"@method": POST
"@authority": business.example.com
"@path": /mcp
"content-digest": sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:
"content-type": application/json
"ucp-agent": profile="https://platform.example/.well-known/ucp"
"idempotency-key": 550e8400-e29b-41d4-a716-446655440000
"@signature-params": ("@method" "@authority" "@path" "content-digest" "content-type" "ucp-agent" "idempotency-key");keyid="platform-2026"`,
    });
  });

  it("verifies RFC 9421 Appendix B.2.4 (ecdsa-p256-sha256 response) with WebCrypto", async () => {
    const headers = new Headers({
      Date: "Tue, 20 Apr 2021 02:07:56 GMT",
      "Content-Type": "application/json",
      "Content-Digest":
        "sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:",
      "Content-Length": "23",
    });
    const base = signatureBase(
      ["@status", "content-type", "content-digest", "content-length"],
      { created: 1618884473, keyid: "test-key-ecc-p256" },
      { status: 200, headers },
    );
    expect(base.ok && base.value).toBe(`"@status": 200
"content-type": application/json
"content-digest": sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:
"content-length": 23
"@signature-params": ("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"`);
    const key = await crypto.subtle.importKey(
      "jwk",
      {
        kty: "EC",
        crv: "P-256",
        x: "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA",
        y: "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0",
      },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["verify"],
    );
    const signature = b64("wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==");
    const valid = await crypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      key,
      signature,
      new TextEncoder().encode(base.ok ? base.value : ""),
    );
    expect(valid).toBe(true);
  });

  it("derives @authority, @path, @query and @target-uri the way RFC 9421 §2.2 does", () => {
    const source = { method: "get", url: "HTTPS://WWW.Example.com:443/a%20b/?q=1&r", headers: new Headers() };
    const base = signatureBase(["@authority", "@path", "@query", "@target-uri", "@scheme"], {}, source);
    expect(base.ok && base.value.split("\n")).toEqual([
      '"@authority": www.example.com',
      '"@path": /a%20b/',
      '"@query": ?q=1&r',
      '"@target-uri": https://www.example.com/a%20b/?q=1&r',
      '"@scheme": https',
      '"@signature-params": ("@authority" "@path" "@query" "@target-uri" "@scheme")',
    ]);
    const empty = signatureBase(["@query", "@authority"], {}, { ...source, url: "http://h.example:8080/p" });
    expect(empty.ok && empty.value.split("\n").slice(0, 2)).toEqual(['"@query": ?', '"@authority": h.example:8080']);
  });

  it("joins repeated header fields with a comma and space, and trims values", () => {
    const headers = new Headers();
    headers.append("X-Multi", " a ");
    headers.append("X-Multi", "b");
    const base = signatureBase(["x-multi"], {}, { status: 200, headers });
    expect(base.ok && base.value.split("\n")[0]).toBe('"x-multi": a, b');
  });

  it("fails on an absent header or a duplicated component", () => {
    const source = { status: 200, headers: new Headers() };
    const absent = signatureBase(["content-type"], {}, source);
    expect(!absent.ok && absent.error.code).toBe("signature_invalid");
    const twice = signatureBase(["@status", "@status"], {}, source);
    expect(!twice.ok && twice.error.code).toBe("signature_invalid");
  });
});

describe("interoperability with an independently built signature", () => {
  it.each([
    ["with alg and created", ';keyid="platform-2026";alg="ecdsa-p256-sha256";created=1738617601'],
    ["without created, as in the spec's example", ';keyid="platform-2026"'],
  ])("accepts a signature made over a hand-built base (%s)", async (_name, paramText) => {
    const { privateJwk, publicJwk } = await generateSigningKeyPair("platform-2026");
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: privateJwk.x, y: privateJwk.y, d: privateJwk.d },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const digest = `sha-256=:${btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)))))}:`;
    const params = `("@method" "@authority" "@path" "content-digest" "content-type")${paramText}`;
    const base = [
      '"@method": POST',
      '"@authority": business.example.com',
      '"@path": /mcp',
      `"content-digest": ${digest}`,
      '"content-type": application/json',
      `"@signature-params": ${params}`,
    ].join("\n");
    const signature = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, new TextEncoder().encode(base)),
    );
    const headers = new Headers({
      "Content-Type": "application/json",
      "Content-Digest": digest,
      "Signature-Input": `tag1=${params}`,
      Signature: `tag1=${serializeByteSequence(signature)}`,
    });
    const req = {
      method: "POST",
      url: "https://business.example.com/mcp",
      headers,
      body: new TextEncoder().encode(body),
    };
    const result = await verifyRequest(req, async () => publicJwk, { now: 1738617601_000, maxAgeSeconds: 300 });
    expect(result).toEqual({
      ok: true,
      value: {
        keyid: "platform-2026",
        label: "tag1",
        components: ["@method", "@authority", "@path", "content-digest", "content-type"],
        ...(paramText.includes("created") ? { created: 1738617601 } : {}),
      },
    });
  });

  it("produces signatures an independent WebCrypto verifier accepts over a hand-built base", async () => {
    const { privateJwk, publicJwk } = await generateSigningKeyPair("merchant-2026");
    const imported = await importSigningKey(JSON.stringify(privateJwk));
    if (!imported.ok) throw new Error(imported.error.content);
    const headers = new Headers({
      "Content-Type": "application/json",
      "UCP-Agent": 'profile="https://merchant.example/.well-known/ucp"',
      "Webhook-Id": "6f1c",
      "Webhook-Timestamp": "1738617601",
    });
    const body = '{"id":"ord_1"}';
    await signRequest(
      { method: "POST", url: "https://platform.example.com/webhooks/ucp/orders", headers, body },
      imported.value,
      {
        created: 1738617601,
      },
    );
    const expectedParams =
      '("@method" "@authority" "@path" "content-digest" "content-type" "ucp-agent" "webhook-id" "webhook-timestamp");created=1738617601;keyid="merchant-2026"';
    expect(headers.get("signature-input")).toBe(`sig1=${expectedParams}`);
    const base = [
      '"@method": POST',
      '"@authority": platform.example.com',
      '"@path": /webhooks/ucp/orders',
      `"content-digest": ${headers.get("content-digest")}`,
      '"content-type": application/json',
      '"ucp-agent": profile="https://merchant.example/.well-known/ucp"',
      '"webhook-id": 6f1c',
      '"webhook-timestamp": 1738617601',
      `"@signature-params": ${expectedParams}`,
    ].join("\n");
    const verifyKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: publicJwk.x, y: publicJwk.y },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["verify"],
    );
    const signature = b64((headers.get("signature") ?? "").slice("sig1=:".length, -1));
    expect(signature.length).toBe(64);
    expect(
      await crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        verifyKey,
        signature,
        new TextEncoder().encode(base),
      ),
    ).toBe(true);
  });
});
