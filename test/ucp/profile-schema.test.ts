/**
 * Issue 10 finding 9: platform profiles that break the platform profile schema (no
 * `services` or `payment_handlers`, capabilities without `spec`/`schema`) were accepted.
 * They are `profile_malformed` (-32001, HTTP 422), and src/ucp/profile-schema.ts agrees with
 * the official schema on every document here (when the official schemas are present).
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

const CASES: Array<[string, Doc, boolean]> = [
  ["a complete platform profile", GOOD, true],
  ["empty registries", withUcp((u) => Object.assign(u, { services: {}, payment_handlers: {} })), true],
  ["no capabilities", withUcp((u) => delete u.capabilities), true],
  ["no services", withUcp((u) => delete u.services), false],
  ["no payment_handlers", withUcp((u) => delete u.payment_handlers), false],
  [
    "a capability without spec",
    withUcp((u) =>
      Object.assign(u, {
        capabilities: { "dev.ucp.shopping.checkout": [{ version: V, schema: "https://ucp.dev/c.json" }] },
      }),
    ),
    false,
  ],
  [
    "a capability without schema",
    withUcp((u) =>
      Object.assign(u, { capabilities: { "dev.ucp.shopping.checkout": [{ version: V, spec: "https://ucp.dev/c" }] } }),
    ),
    false,
  ],
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
  ],
  [
    "an empty extends array",
    withUcp((u) =>
      Object.assign(u, { capabilities: { "dev.ucp.shopping.discount": [{ ...cap("discount"), extends: [] }] } }),
    ),
    false,
  ],
  [
    "a capability name that is not reverse-domain",
    withUcp((u) => Object.assign(u, { capabilities: { Checkout: [cap("checkout")] } })),
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
    false,
  ],
  [
    "a handler without spec",
    withUcp((u) =>
      Object.assign(u, {
        payment_handlers: { "com.example.pay": [{ id: "p", version: V, schema: "https://example.com/p.json" }] },
      }),
    ),
    false,
  ],
  [
    "an mcp binding without schema",
    withUcp((u) =>
      Object.assign(u, {
        services: { "dev.ucp.shopping": [{ version: V, transport: "mcp", spec: "https://ucp.dev/s" }] },
      }),
    ),
    false,
  ],
  [
    "a binding without spec",
    withUcp((u) => Object.assign(u, { services: { "dev.ucp.shopping": [{ version: V, transport: "a2a" }] } })),
    false,
  ],
  [
    "an unknown transport",
    withUcp((u) =>
      Object.assign(u, {
        services: { "dev.ucp.shopping": [{ version: V, transport: "smtp", spec: "https://ucp.dev/s" }] },
      }),
    ),
    false,
  ],
  ["services as an array", withUcp((u) => Object.assign(u, { services: [] })), false],
];

describe("the platform profile schema (src/ucp/profile-schema.ts)", () => {
  it.each(CASES)("%s: valid = %s", (_, doc, valid) => {
    const problem = platformSchemaProblem(doc);
    expect(problem === undefined, problem).toBe(valid);
  });

  it.skipIf(!officialSchemasPresent).each(CASES)("agrees with the official schema on %s", (_, doc, valid) => {
    const official = validateOfficial(PLATFORM, doc);
    expect(official.valid, official.errors.join("\n")).toBe(valid);
  });

  it("names where the problem is", () => {
    expect(platformSchemaProblem(CASES[3]?.[1])).toMatch(/\$\.ucp\.services is required/);
    expect(platformSchemaProblem(CASES[5]?.[1])).toMatch(
      /\$\.ucp\.capabilities\["dev\.ucp\.shopping\.checkout"\]\[0\]\.spec/,
    );
  });
});

describe("a malformed platform profile is refused (-32001 profile_malformed, HTTP 422)", () => {
  it.each([
    "no-services",
    "no-payment-handlers",
    "caps-without-spec",
    "handler-without-id",
    "mcp-service-without-schema",
  ])("malformed-%s.json", async (name) => {
    const reply = await callTool(
      "search_catalog",
      { catalog: { query: "jacket" } },
      `${PROFILES}/malformed-${name}.json`,
    );
    expect(reply.status).toBe(422);
    expect(reply.body.error).toMatchObject({
      code: -32001,
      data: { code: "profile_malformed", content: expect.stringContaining("platform profile schema") },
    });
  });

  it("the fixtures' good profiles still negotiate (the control)", async () => {
    for (const file of ["full.json", "checkout-only.json", "legacy-array.json"]) {
      const reply = await callTool("search_catalog", { catalog: { query: "jacket" } }, `${PROFILES}/${file}`);
      expect(reply.status, `${file}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
  });
});
