import { beforeAll, describe, expect, it } from "vitest";
import { contentDigest } from "../../../src/auth/content-digest";
import {
  type KeyResolver,
  signRequest,
  signResponse,
  verifyRequest,
  verifyResponse,
} from "../../../src/auth/http-signature";
import {
  generateSigningKeyPair,
  importSigningKey,
  type PublicSigningJwk,
  type SigningKey,
} from "../../../src/auth/signing-keys";

const KID = "platform-2026";
const CREATED = 1738617601;
const NOW = (CREATED + 5) * 1000;
const OPTS = { now: NOW, maxAgeSeconds: 300 };
const BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"complete_checkout","arguments":{}}}';
const bytes = (s: string) => new TextEncoder().encode(s);

let key: SigningKey;
let publicJwk: PublicSigningJwk;
let resolve: KeyResolver;

beforeAll(async () => {
  const pair = await generateSigningKeyPair(KID);
  const imported = await importSigningKey(JSON.stringify(pair.privateJwk));
  if (!imported.ok) throw new Error(imported.error.content);
  key = imported.value;
  publicJwk = pair.publicJwk;
  resolve = async (keyid) => (keyid === KID ? publicJwk : undefined);
});

interface Req {
  method: string;
  url: string;
  headers: Headers;
  body: Uint8Array;
}

async function signedRequest(
  opts: { url?: string; body?: string; headers?: Record<string, string>; components?: string[]; created?: number } = {},
): Promise<Req> {
  const body = opts.body ?? BODY;
  const headers = new Headers(
    opts.headers ?? {
      "Content-Type": "application/json",
      "UCP-Agent": 'profile="https://platform.example/.well-known/ucp"',
      "Idempotency-Key": "550e8400-e29b-41d4-a716-446655440000",
    },
  );
  const req = { method: "POST", url: opts.url ?? "https://business.example.com/mcp", headers, body: bytes(body) };
  await signRequest({ ...req, body }, key, { created: opts.created ?? CREATED, components: opts.components });
  return req;
}

async function expectFailure(req: Req, code: string, content?: RegExp, resolver = resolve, opts = OPTS) {
  const result = await verifyRequest(req, resolver, opts);
  expect(result.ok ? "ok" : result.error.code).toBe(code);
  if (!result.ok) {
    if (content) expect(result.error.content).toMatch(content);
    expect(result.error.content.length).toBeLessThan(200);
  }
}

describe("signRequest → verifyRequest", () => {
  it("signs the spec's components in the spec's order and verifies", async () => {
    const req = await signedRequest();
    expect(req.headers.get("content-digest")).toBe(await contentDigest(BODY));
    expect(req.headers.get("signature-input")).toBe(
      `sig1=("@method" "@authority" "@path" "content-digest" "content-type" "ucp-agent" "idempotency-key");created=${CREATED};keyid="${KID}"`,
    );
    expect(req.headers.get("signature")).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/);
    expect(await verifyRequest(req, resolve, OPTS)).toEqual({
      ok: true,
      value: {
        keyid: KID,
        label: "sig1",
        components: [
          "@method",
          "@authority",
          "@path",
          "content-digest",
          "content-type",
          "ucp-agent",
          "idempotency-key",
        ],
        created: CREATED,
      },
    });
  });

  it("covers @query when the URL has one, and webhook headers when present", async () => {
    const req = await signedRequest({
      url: "https://platform.example.com/webhooks/orders?tenant=7",
      headers: { "Content-Type": "application/json", "Webhook-Id": "evt_1", "Webhook-Timestamp": `${CREATED}` },
    });
    expect(req.headers.get("signature-input")).toContain(
      '("@method" "@authority" "@path" "@query" "content-digest" "content-type" "webhook-id" "webhook-timestamp")',
    );
    expect((await verifyRequest(req, resolve, OPTS)).ok).toBe(true);
  });

  it("signs and verifies a body-less request with a P-384 key", async () => {
    const pair = await generateSigningKeyPair("p384", "P-384");
    const imported = await importSigningKey(JSON.stringify(pair.privateJwk));
    if (!imported.ok) throw new Error(imported.error.content);
    const req = { method: "GET", url: "https://b.example/orders/1", headers: new Headers(), body: new Uint8Array() };
    await signRequest({ ...req, body: null }, imported.value, { created: CREATED });
    expect(req.headers.has("content-digest")).toBe(false);
    expect(req.headers.get("signature-input")).toBe(
      `sig1=("@method" "@authority" "@path");created=${CREATED};keyid="p384"`,
    );
    const result = await verifyRequest(req, async () => pair.publicJwk, OPTS);
    expect(result.ok).toBe(true);
  });

  it("honours a custom label", async () => {
    const req = await signedRequest();
    await signRequest({ ...req, body: BODY }, key, { created: CREATED, label: "ucp" });
    expect(req.headers.get("signature")).toMatch(/^ucp=:/);
    expect((await verifyRequest(req, resolve, OPTS)).ok && true).toBe(true);
  });
});

describe("tampering", () => {
  it.each([
    ["method", (r: Req) => Object.assign(r, { method: "PUT" })],
    ["authority", (r: Req) => Object.assign(r, { url: "https://evil.example.com/mcp" })],
    ["authority port", (r: Req) => Object.assign(r, { url: "https://business.example.com:8443/mcp" })],
    ["path", (r: Req) => Object.assign(r, { url: "https://business.example.com/admin" })],
    ["content-type", (r: Req) => r.headers.set("content-type", "text/plain")],
    ["ucp-agent", (r: Req) => r.headers.set("ucp-agent", 'profile="https://evil.example/.well-known/ucp"')],
    ["idempotency-key", (r: Req) => r.headers.set("idempotency-key", "other")],
    ["removed ucp-agent", (r: Req) => r.headers.delete("ucp-agent")],
    [
      "created",
      (r: Req) =>
        r.headers.set(
          "signature-input",
          (r.headers.get("signature-input") ?? "").replace(`${CREATED}`, `${CREATED + 1}`),
        ),
    ],
    [
      "dropped component",
      (r: Req) =>
        r.headers.set("signature-input", (r.headers.get("signature-input") ?? "").replace(' "idempotency-key"', "")),
    ],
    [
      "reordered components",
      (r: Req) =>
        r.headers.set(
          "signature-input",
          (r.headers.get("signature-input") ?? "").replace('"@method" "@authority"', '"@authority" "@method"'),
        ),
    ],
    [
      "signature bytes",
      (r: Req) =>
        r.headers.set(
          "signature",
          (r.headers.get("signature") ?? "").replace(/:(.)/, (_m, c: string) => `:${c === "A" ? "B" : "A"}`),
        ),
    ],
  ])("a changed %s fails as signature_invalid", async (_name, tamper) => {
    const req = await signedRequest();
    tamper(req);
    await expectFailure(req, "signature_invalid");
  });

  it("a changed query fails", async () => {
    const req = await signedRequest({ url: "https://business.example.com/mcp?a=1" });
    await expectFailure(Object.assign(req, { url: "https://business.example.com/mcp?a=2" }), "signature_invalid");
    await expectFailure(Object.assign(req, { url: "https://business.example.com/mcp" }), "signature_invalid");
  });

  it("an added query is not covered and fails", async () => {
    const req = await signedRequest();
    await expectFailure(
      Object.assign(req, { url: "https://business.example.com/mcp?x=1" }),
      "signature_invalid",
      /@query/,
    );
  });

  it("a changed body fails as digest_mismatch", async () => {
    const req = await signedRequest();
    req.body = bytes(BODY.replace("complete_checkout", "cancel_checkout"));
    await expectFailure(req, "digest_mismatch", /does not match/);
  });

  it("a body without Content-Digest, or without it covered, fails as digest_mismatch", async () => {
    const req = await signedRequest();
    req.headers.delete("content-digest");
    await expectFailure(req, "digest_mismatch", /no Content-Digest/);
    const uncovered = await signedRequest({ components: ["@method", "@authority", "@path", "content-type"] });
    await expectFailure(uncovered, "digest_mismatch", /does not cover content-digest/);
  });

  it("a body with a sha-512-only Content-Digest fails as digest_mismatch", async () => {
    const req = await signedRequest();
    req.headers.set("content-digest", "sha-512=:AAAA:");
    await expectFailure(req, "digest_mismatch", /sha-256/);
  });

  it("an uncovered required component fails as signature_invalid", async () => {
    const req = await signedRequest({
      components: ["@method", "@authority", "@path", "content-digest", "content-type"],
    });
    await expectFailure(req, "signature_invalid", /ucp-agent/);
    const ok = await signedRequest();
    const extra = { ...OPTS, requiredComponents: ["webhook-id"] };
    await expectFailure(ok, "signature_invalid", /webhook-id/, resolve, extra);
  });
});

describe("time, keys and headers", () => {
  it("rejects stale and future signatures, allowing 60 s of clock skew", async () => {
    const stale = await signedRequest({ created: CREATED - 400 });
    await expectFailure(stale, "signature_invalid", /expired/);
    const future = await signedRequest({ created: CREATED + 120 });
    await expectFailure(future, "signature_invalid", /future/);
    const skewed = await signedRequest({ created: CREATED + 50 });
    expect((await verifyRequest(skewed, resolve, OPTS)).ok).toBe(true);
  });

  it("rejects a passed expires parameter", async () => {
    const req = await signedRequest();
    req.headers.set("signature-input", `${req.headers.get("signature-input")};expires=${CREATED}`);
    await expectFailure(req, "signature_invalid", /expires/);
  });

  it("explains a failed verification the way the spec's error example does", async () => {
    const req = await signedRequest();
    req.method = "DELETE";
    const result = await verifyRequest(req, resolve, OPTS);
    expect(result).toEqual({
      ok: false,
      error: { code: "signature_invalid", content: "Signature verification failed for key kid=platform-2026" },
    });
  });

  it("rejects an unknown keyid as key_not_found", async () => {
    const req = await signedRequest();
    await expectFailure(req, "key_not_found", /kid=platform-2026 /, async () => undefined);
  });

  it.each([
    ["RSA", { kty: "RSA", n: "AQAB", e: "AQAB" }],
    ["P-521", { kty: "EC", crv: "P-521", x: "A".repeat(88), y: "A".repeat(88) }],
    ["OKP", { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }],
  ])("rejects a %s key as algorithm_unsupported", async (_name, jwk) => {
    await expectFailure(await signedRequest(), "algorithm_unsupported", undefined, async () => jwk as JsonWebKey);
  });

  it("rejects an alg parameter that is unknown or does not match the key", async () => {
    for (const alg of ["ecdsa-p384-sha384", "rsa-pss-sha512"]) {
      const req = await signedRequest();
      req.headers.set("signature-input", `${req.headers.get("signature-input")};alg="${alg}"`);
      await expectFailure(req, "algorithm_unsupported", /alg/);
    }
  });

  it("reports missing headers as signature_missing", async () => {
    const req = await signedRequest();
    const noInput = { ...req, headers: new Headers(req.headers) };
    noInput.headers.delete("signature-input");
    await expectFailure(noInput, "signature_missing", /Signature-Input/);
    req.headers.delete("signature-input");
    req.headers.delete("signature");
    await expectFailure(req, "signature_missing");
  });

  it("rejects mismatched labels and a missing keyid", async () => {
    const req = await signedRequest();
    req.headers.set("signature", (req.headers.get("signature") ?? "").replace("sig1=", "sig2="));
    await expectFailure(req, "signature_invalid", /sig2/);
    const noKeyid = await signedRequest();
    noKeyid.headers.set("signature-input", (noKeyid.headers.get("signature-input") ?? "").replace(/;keyid=".*"/, ""));
    await expectFailure(noKeyid, "signature_invalid", /keyid/);
  });

  it("verifies only the first signature when several are present", async () => {
    const req = await signedRequest();
    const input = req.headers.get("signature-input") ?? "";
    const second = input.replace("sig1=", "sig2=").replace(KID, "other");
    req.headers.set("signature-input", `${input}, ${second}`);
    req.headers.append("signature", "sig2=:AAAA:");
    expect((await verifyRequest(req, resolve, OPTS)).ok).toBe(true);
    req.headers.set("signature-input", `${second}, ${input}`);
    await expectFailure(req, "key_not_found", /other/);
  });

  it("rejects a DER-encoded ECDSA signature", async () => {
    const req = await signedRequest();
    const raw = Uint8Array.from(atob((req.headers.get("signature") ?? "").slice(6, -1)), (c) => c.charCodeAt(0));
    const der = toDer(raw);
    req.headers.set("signature", `sig1=:${btoa(String.fromCharCode(...der))}:`);
    await expectFailure(req, "signature_invalid", /not DER/);
  });

  it("never throws on garbage Signature / Signature-Input values", async () => {
    const garbage = [
      "",
      "sig1",
      "sig1=(",
      'sig1=("@method"',
      'sig1=("@method" "@path");keyid="',
      "sig1=:not base64!:",
      "((((((((",
      '""""""',
      "x".repeat(100_000),
      `sig1=(${'"a" '.repeat(40)})`,
      'sig1=("@method" "@method");keyid="platform-2026"',
      'sig1=("Content-Type");keyid="platform-2026"',
      'sig1=("@query-param");keyid="platform-2026"',
      'sig1=("bad header");keyid="platform-2026"',
      `sig1=();keyid="${"k".repeat(5000)}"`,
      "sig1=();keyid=1;created=-5",
      'sig1=();keyid="platform-2026";created="soon"',
      ...Array.from({ length: 100 }, (_, i) =>
        String.fromCharCode(...Array.from({ length: i }, (_, j) => 32 + ((i * 31 + j * 7) % 95))),
      ),
    ];
    const req = await signedRequest();
    for (const value of garbage) {
      for (const header of ["signature-input", "signature"]) {
        const copy = { ...req, headers: new Headers(req.headers) };
        copy.headers.set(header, value);
        const result = await verifyRequest(copy, resolve, OPTS);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.content.length).toBeLessThan(200);
      }
    }
  });
});

describe("signResponse → verifyResponse", () => {
  it("signs @status, content-digest and content-type, and detects tampering", async () => {
    const headers = new Headers({ "Content-Type": "application/json" });
    const body = '{"id":"chk_1","status":"completed"}';
    await signResponse({ status: 200, headers, body }, key, { created: CREATED });
    expect(headers.get("signature-input")).toBe(
      `sig1=("@status" "content-digest" "content-type");created=${CREATED};keyid="${KID}"`,
    );
    const res = { status: 200, headers, body: bytes(body) };
    const verified = await verifyResponse(res, publicJwk, { now: NOW });
    expect(verified.ok && verified.value.components).toEqual(["@status", "content-digest", "content-type"]);
    const failed = await verifyResponse({ ...res, status: 201 }, publicJwk, { now: NOW });
    expect(!failed.ok && failed.error.code).toBe("signature_invalid");
    const otherKid = await verifyResponse(res, { ...publicJwk, kid: "someone-else" } as JsonWebKey, { now: NOW });
    expect(!otherKid.ok && otherKid.error.code).toBe("key_not_found");
  });

  it("refuses request components on a response", async () => {
    const headers = new Headers();
    await expect(
      signResponse({ status: 204, headers, body: null }, key, { components: ["@method"] }),
    ).rejects.toThrow();
  });
});

// ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }, as other stacks (OpenSSL, Java) emit by default.
function toDer(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    const v = b.slice(i);
    return (v[0] ?? 0) & 0x80 ? [0x02, v.length + 1, 0, ...v] : [0x02, v.length, ...v];
  };
  const half = raw.length / 2;
  const body = [...int(raw.slice(0, half)), ...int(raw.slice(half))];
  return Uint8Array.from([0x30, body.length, ...body]);
}
