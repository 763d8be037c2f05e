/**
 * RFC 9421 request signatures through the Worker, with real WebCrypto keys: the signer's
 * key comes from its profile's signing_keys (fixture profiles publish PLATFORM_KEY).
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signRequest } from "../../src/auth/http-signature";
import { importSigningKey } from "../../src/auth/signing-keys";
import { OTHER_KEY } from "../fixtures/platform-keys";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, PROFILES, platformKey } from "../helpers/mcp";

// biome-ignore lint/suspicious/noExplicitAny: -- replies are inspected structurally
type Json = any;

let nextId = 1;
const searchBody = (profile = FULL_PROFILE) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name: "search_catalog", arguments: { meta: { "ucp-agent": { profile } }, catalog: { query: "shirt" } } },
  });

interface Draft {
  url: string;
  headers: Headers;
  body: string;
}

function draft(body = searchBody(), profile = FULL_PROFILE): Draft {
  return {
    url: ENDPOINT,
    body,
    headers: new Headers({
      "content-type": "application/json",
      accept: "application/json",
      "cf-connecting-ip": CLIENT_IP,
      "ucp-agent": `profile="${profile}"`,
      "idempotency-key": crypto.randomUUID(),
    }),
  };
}

const header = (d: Draft, name: string) => d.headers.get(name) ?? "";

async function signed(d: Draft, opts: { created?: number; key?: typeof OTHER_KEY } = {}): Promise<Draft> {
  const key = opts.key ? await importKey(opts.key) : await platformKey();
  await signRequest({ method: "POST", url: d.url, headers: d.headers, body: d.body }, key, { created: opts.created });
  return d;
}

async function importKey(jwk: typeof OTHER_KEY) {
  const k = await importSigningKey(JSON.stringify(jwk));
  if (!k.ok) throw new Error(k.error.content);
  return k.value;
}

async function send(d: Draft, override: Partial<{ url: string; body: string }> = {}) {
  const res = await exports.default.fetch(override.url ?? d.url, {
    method: "POST",
    headers: d.headers,
    body: override.body ?? d.body,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

function expectRefusal(reply: { status: number; body: Json }, status: number, rpc: number, code: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.error).toMatchObject({ code: rpc, data: { code } });
  expect(reply.body.error.data.content).toEqual(expect.any(String));
}

describe("signed requests", () => {
  it("a correctly signed request passes as the authenticated platform", async () => {
    const reply = await send(await signed(draft()));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.result.structuredContent.ucp.status).toBe("success");
    expect(reply.headers.get("ucp-trust-tier")).toBe("authenticated");
  });

  it("an unsigned request is anonymous, and says so", async () => {
    const d = draft();
    const reply = await send(d);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("ucp-trust-tier")).toBe("anonymous");
  });

  it("a changed body is a digest mismatch (-32600, 400)", async () => {
    const d = await signed(draft());
    expectRefusal(await send(d, { body: searchBody() }), 400, -32600, "digest_mismatch");
  });

  it("a recomputed Content-Digest for a changed body fails the signature (-32000, 401)", async () => {
    const d = await signed(draft());
    const body = searchBody();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
    d.headers.set("content-digest", `sha-256=:${btoa(String.fromCharCode(...new Uint8Array(digest)))}:`);
    expectRefusal(await send(d, { body }), 401, -32000, "signature_invalid");
  });

  const tampered: Array<[string, (d: Draft) => void]> = [
    ["@authority", (d) => (d.url = ENDPOINT.replace("shop.example.com", "other.example.com"))],
    ["content-type", (d) => d.headers.set("content-type", "application/json; charset=utf-8")],
    ["ucp-agent", (d) => d.headers.set("ucp-agent", `profile="${PROFILES}/unique-tampered-agent.json"`)],
    ["idempotency-key", (d) => d.headers.set("idempotency-key", crypto.randomUUID())],
    [
      "signature-input",
      // one second earlier: still fresh, but not what was signed
      (d) =>
        d.headers.set(
          "signature-input",
          header(d, "signature-input").replace(/created=(\d+)/, (_m, t) => `created=${Number(t) - 1}`),
        ),
    ],
    [
      "signature",
      (d) =>
        d.headers.set(
          "signature",
          header(d, "signature").replace(/:(.)/, (_m, c) => `:${c === "A" ? "B" : "A"}`),
        ),
    ],
  ];
  for (const [component, tamper] of tampered) {
    it(`a tampered ${component} is refused as signature_invalid (-32000, 401)`, async () => {
      const d = await signed(draft());
      tamper(d);
      expectRefusal(await send(d), 401, -32000, "signature_invalid");
    });
  }

  it("@path is covered: a signature made for another path is refused", async () => {
    const d = draft();
    await signRequest({ method: "POST", url: `${ENDPOINT}-v2`, headers: d.headers, body: d.body }, await platformKey());
    expectRefusal(await send(d), 401, -32000, "signature_invalid");
  });

  it("a stale signature is refused", async () => {
    const d = await signed(draft(), { created: Math.floor(Date.now() / 1000) - 3600 });
    const reply = await send(d);
    expectRefusal(reply, 401, -32000, "signature_invalid");
    expect(reply.body.error.data.content).toMatch(/expired|old/i);
  });

  it("a signature from the future is refused", async () => {
    const d = await signed(draft(), { created: Math.floor(Date.now() / 1000) + 3600 });
    expectRefusal(await send(d), 401, -32000, "signature_invalid");
  });

  it("a key the profile does not publish is key_not_found (-32000, 401)", async () => {
    const d = await signed(draft(), { key: OTHER_KEY });
    const reply = await send(d);
    expectRefusal(reply, 401, -32000, "key_not_found");
    expect(reply.body.error.data.content).toContain(OTHER_KEY.kid);
  });

  it("a key on an unsupported curve is algorithm_unsupported (-32600, 400)", async () => {
    const profile = `${PROFILES}/rsa-key.json`;
    const d = draft(searchBody(profile), profile);
    await signRequest({ method: "POST", url: d.url, headers: d.headers, body: d.body }, await platformKey(), {});
    // The fixture publishes an RSA key under the test platform's kid.
    expectRefusal(await send(d), 400, -32600, "algorithm_unsupported");
  });

  it("Signature-Input without Signature is signature_missing", async () => {
    const d = await signed(draft());
    d.headers.delete("signature");
    expectRefusal(await send(d), 401, -32000, "signature_missing");
  });

  it("a signed request without UCP-Agent cannot name its signer", async () => {
    const d = await signed(draft());
    d.headers.delete("ucp-agent");
    expectRefusal(await send(d), 401, -32000, "signature_invalid");
  });

  it("signed as one platform, acting for another profile in meta: identity_mismatch (403)", async () => {
    const d = await signed(draft(searchBody(`${PROFILES}/unique-someone-else.json`)));
    expectRefusal(await send(d), 403, -32000, "identity_mismatch");
  });

  it("garbage signature headers never cause a 5xx", async () => {
    for (const [input, sig] of [
      ["sig1=(", "sig1=:AAAA:"],
      ['sig1=("@method" "@authority");keyid="x', "sig1=:%%%:"],
      [`sig1=(${'"a" '.repeat(5000)})`, "sig1=:AA==:"],
      ["", ""],
    ]) {
      const d = draft();
      d.headers.set("signature-input", input ?? "");
      d.headers.set("signature", sig ?? "");
      const reply = await send(d);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.error.code).toBe(-32000);
    }
  });
});
