/**
 * complete_checkout answers are signed by the merchant key (spec: RECOMMENDED), verifiable
 * with the public key discovery publishes; other tools' answers are not signed.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import committed from "../../public/.well-known/ucp?raw";
import { signRequest, verifyResponse } from "../../src/auth/http-signature";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, meta, platformKey } from "../helpers/mcp";

const discoveryKeys: JsonWebKey[] = JSON.parse(committed).signing_keys;

async function rawCall(name: string, args: Record<string, unknown>) {
  const key = crypto.randomUUID();
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name, arguments: { meta: meta(FULL_PROFILE, { "idempotency-key": key }), ...args } },
  });
  const headers = new Headers({
    "content-type": "application/json",
    accept: "application/json",
    "cf-connecting-ip": CLIENT_IP,
    "ucp-agent": `profile="${FULL_PROFILE}"`,
    // Signed complete_checkout covers its key (src/pipeline/idempotency-key.ts).
    "idempotency-key": key,
  });
  await signRequest({ method: "POST", url: ENDPOINT, headers, body }, await platformKey());
  const res = await exports.default.fetch(ENDPOINT, { method: "POST", headers, body });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function keyFor(headers: Headers): JsonWebKey {
  const kid = /keyid="([^"]+)"/.exec(headers.get("signature-input") ?? "")?.[1];
  const key = discoveryKeys.find((k) => (k as { kid?: string }).kid === kid);
  if (!key) throw new Error(`no discovery key for ${kid}`);
  return key;
}

describe("signed complete_checkout responses", () => {
  it("verify with the merchant's published key, over @status, content-digest and content-type", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const res = await rawCall("complete_checkout", { id: checkout.id, checkout: pay("success_token") });
    expect(res.status).toBe(200);
    const verified = await verifyResponse(
      { status: res.status, headers: res.headers, body: res.bytes },
      keyFor(res.headers),
      { now: Date.now(), maxAgeSeconds: 60 },
    );
    expect(verified.ok, JSON.stringify(verified)).toBe(true);
    if (verified.ok) expect(verified.value.components).toEqual(["@status", "content-digest", "content-type"]);
    const payload = JSON.parse(new TextDecoder().decode(res.bytes)).result.structuredContent;
    expect(payload.status).toBe("completed");

    // A changed body or status no longer verifies.
    const tampered = new TextEncoder().encode(new TextDecoder().decode(res.bytes).replace("completed", "canceled"));
    const bad = await verifyResponse({ status: 200, headers: res.headers, body: tampered }, keyFor(res.headers));
    expect(bad.ok).toBe(false);
    const badStatus = await verifyResponse({ status: 201, headers: res.headers, body: res.bytes }, keyFor(res.headers));
    expect(badStatus.ok).toBe(false);
  });

  it("error answers of complete_checkout are signed too; other tools' answers are not", async () => {
    const refused = await rawCall("complete_checkout", { id: "chk_nope", checkout: pay("success_token") });
    expect(refused.headers.get("signature")).not.toBeNull();
    const other = await tool("get_checkout", { id: "chk_nope" });
    expect(other.headers.get("signature")).toBeNull();
  });
});
