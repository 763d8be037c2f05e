/**
 * Issue 14 item 6: the answers that do not depend on the request stay cheap. `ping` and
 * `tools/list` come from what the isolate already holds (tools/list is serialized once,
 * src/mcp/tool-list.ts), and discovery is a file the build writes (public/, served by the
 * asset layer before the Worker runs): here, that they stay the same and right when served.
 */

import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import committed from "../../public/.well-known/ucp?raw";
import signingKeys from "../../signing-keys.json";
import { buildConfig, type MerchantVars } from "../../src/config";
import { toolsListResult } from "../../src/mcp/tool-list";
import { discoveryDocument } from "../../src/ucp/discovery";
import { CLIENT_IP, ENDPOINT } from "../helpers/mcp";
import { CURRENT, validateCurrent } from "../helpers/official-schema-current";

async function rpcText(body: string): Promise<string> {
  const res = await exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body,
  });
  expect(res.status).toBe(200);
  return res.text();
}

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("static answers", { timeout: 30_000 }, () => {
  it("ping answers an empty result under the caller's id, every time", async () => {
    expect(await rpcText('{"jsonrpc":"2.0","id":7,"method":"ping"}')).toBe('{"jsonrpc":"2.0","id":7,"result":{}}');
    expect(await rpcText('{"jsonrpc":"2.0","id":"b","method":"ping"}')).toBe('{"jsonrpc":"2.0","id":"b","result":{}}');
  });

  it("tools/list is the same bytes on every call, under each caller's id, and is built once per isolate", async () => {
    const first = await rpcText('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    // A tool call in between changes nothing the list is made of.
    await rpcText('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    const second = await rpcText('{"jsonrpc":"2.0","id":"again","method":"tools/list"}');
    const result = (text: string, id: string) => {
      const prefix = `{"jsonrpc":"2.0","id":${id},"result":`;
      expect(text.startsWith(prefix)).toBe(true);
      return text.slice(prefix.length, -1);
    };
    expect(result(second, '"again"')).toBe(result(first, "1"));
    const tools = JSON.parse(result(first, "1")).tools as Array<{ name: string }>;
    expect(tools).toHaveLength(13);
    expect(toolsListResult()).toBe(toolsListResult());
  });

  it("discovery is the document the build writes from the vars, valid, and follows a var it shows", () => {
    const vars = env as unknown as MerchantVars;
    const deployed = { ...vars, MERCHANT_ORIGIN: "http://localhost:8787", PAYMENT_TEST_MODE: undefined };
    expect(discoveryDocument(buildConfig(deployed), signingKeys)).toBe(committed);
    const moved = discoveryDocument(
      buildConfig({ ...deployed, MERCHANT_ORIGIN: "https://moved.example" }),
      signingKeys,
    );
    const profile = JSON.parse(moved);
    expect(validateCurrent(CURRENT.businessProfile, profile).errors).toEqual([]);
    // The embedded transport is a binding for the checkout page, with no endpoint of its own.
    const endpoints = profile.ucp.services["dev.ucp.shopping"]
      .filter((s: { transport: string }) => s.transport !== "embedded")
      .map((s: { endpoint: string }) => s.endpoint);
    expect(endpoints).toEqual(["https://moved.example/ucp/mcp", "https://moved.example/ucp"]);
  });
});
