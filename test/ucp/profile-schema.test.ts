/**
 * Issue 23 (which revises issue 10's finding 9): real agents' profiles are untidy, Shopify's
 * own leaves `spec`/`schema` off capabilities. What the official platform schema requires but
 * a business never acts on no longer refuses a profile; what negotiation cannot read still
 * does, as `profile_malformed` naming the missing member. The official schema's verdict is
 * recorded beside ours, so every leniency is a deliberate, visible one.
 */
import { describe, expect, it } from "vitest";
import { platformSchemaProblem } from "../../src/ucp/profile-schema";
import { callTool, PROFILES } from "../helpers/mcp";
import { OFFICIAL, officialSchemasPresent, validateOfficial } from "../helpers/official-schema";

const V = "2026-04-08";
const PLATFORM = `${OFFICIAL.profile}#/$defs/platform_profile`;
const cap = (name: string) => ({
  version: V,
  spec: `https://ucp.dev/${V}/specification/${name}`,
  schema: `https://ucp.dev/${V}/schemas/shopping/${name}.json`,
});
const GOOD = {
  ucp: {
    version: V,
    services: {
      "dev.ucp.shopping": [
        { version: V, transport: "mcp", spec: "https://ucp.dev/s", schema: "https://ucp.dev/m.json" },
        { version: V, transport: "a2a", spec: "https://ucp.dev/s" },
      ],
    },
    capabilities: {
      "dev.ucp.shopping.checkout": [cap("checkout")],
      "dev.ucp.shopping.fulfillment": [{ ...cap("fulfillment"), extends: "dev.ucp.shopping.checkout" }],
    },
    payment_handlers: {
      "com.example.pay": [
        {
          id: "pay_1",
          version: V,
          spec: "https://example.com/pay",
          schema: "https://example.com/pay.json",
          available_instruments: [{ type: "card" }],
        },
      ],
    },
  },
};
type Doc = { ucp: Record<string, unknown> };
const withUcp = (change: (ucp: Record<string, unknown>) => void): Doc => {
  const doc = structuredClone(GOOD) as Doc;
  change(doc.ucp);
  return doc;
};

/** [name, document, accepted by us, valid under the official platform schema] */
const CASES: Array<[string, Doc, boolean, boolean]> = [
  ["a complete platform profile", GOOD, true, true],
  ["empty registries", withUcp((u) => Object.assign(u, { services: {}, payment_handlers: {} })), true, true],
  ["no capabilities", withUcp((u) => delete u.capabilities), true, true],
  // Leniencies (docs/decisions/protocol.md, "Platform profiles: accept what can be understood"): what
  // the official schema requires but a business never acts on does not refuse a profile.
  ["no services", withUcp((u) => delete u.services), true, false],
  ["no payment_handlers", withUcp((u) => delete u.payment_handlers), true, false],
  [
    "a capability without spec",
    withUcp((u) =>
      Object.assign(u, {
        capabilities: { "dev.ucp.shopping.checkout": [{ version: V, schema: "https://ucp.dev/c.json" }] },
      }),
    ),
    true,
    false,
  ],
  [
    "a capability without schema",
    withUcp((u) =>
      Object.assign(u, { capabilities: { "dev.ucp.shopping.checkout": [{ version: V, spec: "https://ucp.dev/c" }] } }),
    ),
    true,
    false,
  ],
  [
    "a handler without id",
    withUcp((u) =>
      Object.assign(u, {
        payment_handlers: {
          "com.example.pay": [{ version: V, spec: "https://example.com/p", schema: "https://example.com/p.json" }],
        },
      }),
    ),
    true,
    false,
  ],
  [
    "an mcp binding without schema",
    withUcp((u) =>
      Object.assign(u, {
        services: { "dev.ucp.shopping": [{ version: V, transport: "mcp", spec: "https://ucp.dev/s" }] },
      }),
    ),
    true,
    false,
  ],
  // What negotiation cannot read is refused.
  [
    "a capability without version",
    withUcp((u) =>
      Object.assign(u, {
        capabilities: {
          "dev.ucp.shopping.checkout": [{ spec: "https://ucp.dev/c", schema: "https://ucp.dev/c.json" }],
        },
      }),
    ),
    false,
    false,
  ],
  ["a profile without version", withUcp((u) => delete u.version), false, false],
  [
    "capabilities that are not a registry",
    withUcp((u) => Object.assign(u, { capabilities: { "dev.ucp.shopping.checkout": { version: V } } })),
    false,
    false,
  ],
  ["services as an array", withUcp((u) => Object.assign(u, { services: [] })), false, false],
];

describe("what a platform profile must hold (src/ucp/profile-schema.ts)", () => {
  it.each(CASES)("%s: accepted = %s", (_, doc, accepted) => {
    const problem = platformSchemaProblem(doc);
    expect(problem === undefined, problem).toBe(accepted);
  });

  it.skipIf(!officialSchemasPresent).each(CASES)("the official schema's verdict on %s", (_, doc, _a, valid) => {
    const official = validateOfficial(PLATFORM, doc);
    expect(official.valid, official.errors.join("\n")).toBe(valid);
  });

  it("names a missing member as missing, and says where", () => {
    const noVersion = CASES.find(([name]) => name === "a capability without version")?.[1];
    expect(platformSchemaProblem(noVersion)).toBe(
      'Platform profile cannot be read: $.ucp.capabilities["dev.ucp.shopping.checkout"][0].version is required',
    );
    expect(platformSchemaProblem(withUcp((u) => delete u.version))).toBe(
      "Platform profile cannot be read: $.ucp.version is required",
    );
  });
});

describe("profiles the official schema refuses but a store can act on are accepted", () => {
  it.each([
    "no-services",
    "no-payment-handlers",
    "caps-without-spec",
    "handler-without-id",
    "mcp-service-without-schema",
  ])("malformed-%s.json negotiates", async (name) => {
    const reply = await callTool(
      "search_catalog",
      { catalog: { query: "jacket" } },
      `${PROFILES}/malformed-${name}.json`,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.result?.structuredContent?.ucp?.status).toBe("success");
  });

  it("an unreadable profile is still profile_malformed (-32001, HTTP 422), naming what is missing", async () => {
    const reply = await callTool("search_catalog", { catalog: { query: "jacket" } }, `${PROFILES}/no-ucp.json`);
    expect(reply.status).toBe(422);
    expect(reply.body.error).toMatchObject({ code: -32001, data: { code: "profile_malformed" } });
  });
});
