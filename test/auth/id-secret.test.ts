/**
 * Issue 10 finding 2: no public secret. Without ID_SIGNING_KEY the store used a secret built
 * from its public origin, so anyone could compute the ids of idempotent creates, checkouts
 * made from carts and orders. Now every tool call is store_misconfigured instead.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, meta } from "../helpers/mcp";

async function createWithout(key: string) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "create_cart",
      arguments: {
        meta: meta(FULL_PROFILE, { "idempotency-key": key }),
        cart: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] },
      },
    },
  };
  const request = new Request(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify(body),
  });
  // A fresh env object: the settings are read once per env.
  const vars = { ...env, ID_SIGNING_KEY: undefined } as unknown as Env;
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, vars);
  return { status: res.status, body: (await res.json()) as { error?: { code: number; data?: { code?: string } } } };
}

describe("ID_SIGNING_KEY is required", () => {
  afterEach(() => vi.restoreAllMocks());

  it("without it a tool call is store_misconfigured (-32000, 503), one log line naming it, no cart made", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const reply = await createWithout(crypto.randomUUID());
    expect(reply.status).toBe(503);
    expect(reply.body.error).toMatchObject({ code: -32000, data: { code: "store_misconfigured" } });
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]?.[0])).toMatch(/ID_SIGNING_KEY/);
  });
});
