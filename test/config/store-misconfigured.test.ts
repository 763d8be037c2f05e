/**
 * A setting that reaches the Worker but does not parse (what `npm run check:config` would
 * have refused) is answered as "store misconfigured" (-32000, 503, store_misconfigured) with
 * one log line naming the setting, never as -32603 Internal error.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { CLIENT_IP, ENDPOINT, meta } from "../helpers/mcp";

async function call(vars: Record<string, unknown>, name = "create_checkout") {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: { meta: meta(), checkout: { line_items: [{ item: { id: "item_123" }, quantity: 1 }] } },
    },
  };
  const request = new Request(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify(body),
  });
  // A fresh env object per call: the settings parsers cache per env.
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars } as Env);
  return { status: res.status, body: (await res.json()) as { error?: { code: number; data?: { code?: string } } } };
}

describe("a misconfigured store", () => {
  afterEach(() => vi.restoreAllMocks());

  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'a discount with type = "percent"',
      { DISCOUNTS: [{ code: "SAVE10", title: "10% off", type: "percent", value: 10 }] },
      /DISCOUNTS\[0\]\.type/,
    ],
    [
      "TRUST with an unsupported rate-limit period",
      { TRUST: { rate_limit_period_seconds: 30 } },
      /TRUST\.rate_limit_period_seconds/,
    ],
    ["a currency that is not ISO 4217", { MERCHANT_CURRENCY: "US$" }, /MERCHANT_CURRENCY/],
    ["an origin with a path", { MERCHANT_ORIGIN: "https://shop.example.com/store" }, /MERCHANT_ORIGIN/],
  ];

  for (const [what, vars, setting] of cases) {
    it(`answers ${what} with store_misconfigured (-32000, 503) and one log line naming it`, async () => {
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      const reply = await call(vars);
      expect(reply.status).toBe(503);
      expect(reply.body.error).toMatchObject({ code: -32000, data: { code: "store_misconfigured" } });
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]?.[0])).toMatch(setting);
    });
  }

  it("serves normally with the repository's settings", async () => {
    const reply = await call({});
    expect(reply.status).toBe(200);
    expect(reply.body.error).toBeUndefined();
  });
});
