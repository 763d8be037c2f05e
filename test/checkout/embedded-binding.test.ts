/**
 * Issue 25 item 4: a checkout says it may be embedded (ECP) with the embedded service binding
 * and its `config.delegate` (2026-08-25 shopping/checkout/embedded.md §Per-Checkout
 * Configuration), at both versions, valid against each version's official schemas; only a
 * session whose owner authenticated carries it, because only that owner's origin may frame
 * the page. Discovery advertises the `embedded` transport in both profiles.
 */

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { merchantConfig } from "../../src/config";
import { discoveryProfile } from "../../src/ucp/discovery";
import { ECP_DELEGATIONS } from "../../src/ucp/embedded";
import { type Json, tool } from "../helpers/checkout";
import { FULL_PROFILE, type PostOptions, PROFILES } from "../helpers/mcp";
import { OFFICIAL, validateCheckout, validateOfficial } from "../helpers/official-schema";
import { CURRENT, validateComposed, validateCurrent } from "../helpers/official-schema-current";

const V2 = `${PROFILES}/v2026-08-25/full.json`;
const SIGNED: PostOptions = { signed: true };
const lines = [{ item: { id: "item_123" }, quantity: 1 }];

async function create(profile: string, options: PostOptions = {}): Promise<Json> {
  const reply = await tool(
    "create_checkout",
    { checkout: { line_items: lines } },
    crypto.randomUUID(),
    profile,
    options,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const payload = reply.body.result.structuredContent;
  expect(payload.ucp.status, JSON.stringify(payload)).toBe("success");
  return payload;
}

async function read(id: string, profile: string, options: PostOptions = {}): Promise<Json> {
  const reply = await tool("get_checkout", { id }, undefined, profile, options);
  return reply.body.result.structuredContent;
}

function embeddedBinding(payload: Json): Json {
  return (payload.ucp.services?.["dev.ucp.shopping"] ?? []).find((b: Json) => b.transport === "embedded");
}

describe("the embedded service binding in checkout responses", () => {
  it("2026-04-08: an authenticated owner's checkout carries it with config.delegate, valid against the official schemas", async () => {
    const created = await create(FULL_PROFILE, SIGNED);
    expect(validateCheckout(created)).toEqual([]);
    expect(embeddedBinding(created)).toEqual({
      version: "2026-04-08",
      transport: "embedded",
      config: { delegate: [...ECP_DELEGATIONS], color_scheme: ["light"] },
    });
    expect(created.continue_url).toMatch(/^https:\/\/shop\.example\.com\/checkout\//);
    const again = await read(created.id, FULL_PROFILE, SIGNED);
    expect(validateCheckout(again)).toEqual([]);
    expect(embeddedBinding(again)?.config.delegate).toEqual([...ECP_DELEGATIONS]);
  });

  it("2026-08-25: the same binding at that version, valid against its checkout.json composed with the extensions", async () => {
    const created = await create(V2, SIGNED);
    expect(created.ucp.version).toBe("2026-08-25");
    expect(validateComposed(CURRENT.checkout, "dev.ucp.shopping.checkout", created)).toEqual([]);
    expect(embeddedBinding(created)).toEqual({
      version: "2026-08-25",
      transport: "embedded",
      config: { delegate: [...ECP_DELEGATIONS], color_scheme: ["light"] },
    });
  });

  it("an anonymous owner's checkout has no binding (redirect hand-off only), also when its platform later signs", async () => {
    const anonymous = await create(FULL_PROFILE);
    expect(anonymous.ucp.services).toBeUndefined();
    expect(validateCheckout(anonymous)).toEqual([]);
    const signedRead = await read(anonymous.id, FULL_PROFILE, SIGNED);
    expect(signedRead.id).toBe(anonymous.id);
    expect(signedRead.ucp.services).toBeUndefined();
    const current = await create(V2);
    expect(current.ucp.services).toBeUndefined();
    expect(validateComposed(CURRENT.checkout, "dev.ucp.shopping.checkout", current)).toEqual([]);
  });
});

describe("discovery advertises the embedded transport", () => {
  it("in the 2026-08-25 root and the 2026-04-08 leaf, each valid against its business profile schema", () => {
    const config = merchantConfig(env);
    for (const version of ["2026-08-25", "2026-04-08"] as const) {
      const profile = discoveryProfile(config, [], version) as Json;
      const embedded = profile.ucp.services["dev.ucp.shopping"].find((b: Json) => b.transport === "embedded");
      expect(embedded).toEqual({
        version,
        spec: `https://ucp.dev/${version}/specification/overview`,
        transport: "embedded",
        schema: `https://ucp.dev/${version}/services/shopping/embedded.openrpc.json`,
        config: { delegate: [...ECP_DELEGATIONS], color_scheme: ["light"] },
      });
      expect(embedded.endpoint).toBeUndefined();
    }
    expect(validateCurrent(CURRENT.businessProfile, discoveryProfile(config, [], "2026-08-25")).errors).toEqual([]);
    const leaf = discoveryProfile(config, [], "2026-04-08");
    expect(validateOfficial(`${OFFICIAL.profile}#/$defs/business_profile`, leaf).errors).toEqual([]);
  });
});
