/**
 * Issue 10 findings 4 and 5: the idempotency key is checked at the edge, before anything
 * changes (length and characters every step can carry), and a signed complete_checkout or
 * cancel_checkout must cover it (spec-digest §10.3), else a captured signature replayed with
 * fresh keys would be a new charge attempt each time.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signRequest } from "../../src/auth/http-signature";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, meta, platformKey, post } from "../helpers/mcp";

async function status(id: string): Promise<string> {
  const read = await tool("get_checkout", { id });
  return read.body.result.structuredContent.status;
}

function completeBody(id: string, metaExtra: Record<string, unknown>) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "complete_checkout",
      arguments: { meta: meta(FULL_PROFILE, metaExtra), id, checkout: pay("success_token") },
    },
  };
}

/** A request signed by the test platform over exactly the headers given (plus the body's). */
async function signedPost(body: unknown, headers: Record<string, string>) {
  const text = JSON.stringify(body);
  const sent = new Headers({
    "content-type": "application/json",
    accept: "application/json",
    "cf-connecting-ip": CLIENT_IP,
    "ucp-agent": `profile="${FULL_PROFILE}"`,
    ...headers,
  });
  await signRequest({ method: "POST", url: ENDPOINT, headers: sent, body: text }, await platformKey());
  return sent;
}

async function send(body: unknown, headers: Headers) {
  const res = await exports.default.fetch(ENDPOINT, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

describe("idempotency keys at the edge", () => {
  it("a 230-character key is -32602 before anything changes (it used to strand the checkout)", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const reply = await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, "k".repeat(230));
    expect(reply.body.error, JSON.stringify(reply.body)).toMatchObject({ code: -32602 });
    expect(reply.status).toBe(200);
    expect(await status(checkout.id)).toBe("ready_for_complete");
    // The same checkout completes with a proper key.
    const done = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(done.body.result?.structuredContent.status, JSON.stringify(done.body)).toBe("completed");
  });

  it("keys differing only in a lone surrogate do not meet: both are -32602", async () => {
    const lines = { checkout: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] } };
    const first = await tool("create_checkout", lines, "key-\uD800");
    const second = await tool("create_checkout", lines, "key-\uDC00");
    expect(first.body.error, JSON.stringify(first.body)).toMatchObject({ code: -32602 });
    expect(second.body.error, JSON.stringify(second.body)).toMatchObject({ code: -32602 });
  });

  it("a 128-character visible-ASCII key is accepted; 129 is not", async () => {
    const lines = { checkout: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] } };
    const ok = await tool("create_checkout", lines, `${"a".repeat(92)}${crypto.randomUUID()}`);
    expect(ok.body.result?.structuredContent.status, JSON.stringify(ok.body)).toBeDefined();
    const long = await tool("create_checkout", lines, `${"a".repeat(93)}${crypto.randomUUID()}`);
    expect(long.body.error).toMatchObject({ code: -32602 });
  });

  it("meta and the Idempotency-Key header naming different keys is -32602", async () => {
    const reply = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "create_cart",
          arguments: {
            meta: meta(FULL_PROFILE, { "idempotency-key": "meta-key-1" }),
            cart: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] },
          },
        },
      },
      { "idempotency-key": "header-key-2" },
    );
    expect(reply.body.error).toMatchObject({ code: -32602 });
  });
});

describe("signed complete_checkout must cover idempotency-key", () => {
  it("a signature that does not cover it is refused (signature_invalid, 401) and nothing is charged", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const body = completeBody(checkout.id, { "idempotency-key": crypto.randomUUID() });
    const reply = await send(body, await signedPost(body, {}));
    expect(reply.status).toBe(401);
    expect(reply.body.error).toMatchObject({ code: -32000, data: { code: "signature_invalid" } });
    expect(await status(checkout.id)).toBe("ready_for_complete");
  });

  it("a captured signed request replayed with a fresh unsigned Idempotency-Key header is refused", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const body = completeBody(checkout.id, {});
    const captured = await signedPost(body, {});
    captured.set("idempotency-key", crypto.randomUUID());
    const reply = await send(body, captured);
    expect(reply.status).toBe(401);
    expect(reply.body.error).toMatchObject({ data: { code: "signature_invalid" } });
    expect(await status(checkout.id)).toBe("ready_for_complete");
  });

  it("a signature covering the Idempotency-Key header completes", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const key = crypto.randomUUID();
    const body = completeBody(checkout.id, { "idempotency-key": key });
    const reply = await send(body, await signedPost(body, { "idempotency-key": key }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.result.structuredContent.status).toBe("completed");
  });
});
