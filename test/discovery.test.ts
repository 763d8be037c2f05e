/**
 * The store's two profiles (issue 23): /.well-known/ucp is the 2026-08-25 business profile,
 * its `supported_versions` names the 2026-04-08 leaf at /.well-known/ucp-profiles/2026-04-08,
 * and each validates against its own version's official schema.
 */
import { describe, expect, it } from "vitest";
import committed from "../public/.well-known/ucp?raw";
import committedLeaf from "../public/.well-known/ucp-profiles/2026-04-08?raw";
import headers from "../public/_headers?raw";
import signingKeys from "../signing-keys.json";
import { buildConfig } from "../src/config";
import type { HandlerRegistry } from "../src/payment/handlers";
import { TOOLS } from "../src/tools";
import { businessCapabilities } from "../src/ucp/capabilities";
import { discoveryProfile } from "../src/ucp/discovery";
import { unboundEntries } from "../src/ucp/discovery-authority";
import { currentHandlers, handlerOrder } from "../src/ucp/discovery-handlers";
import { CURRENT_VERSION, LEGACY_VERSION, type UcpVersion } from "../src/ucp/versions";
import { OFFICIAL, validateOfficial } from "./helpers/official-schema";
import { CURRENT, currentSchemasPresent, validateCurrent } from "./helpers/official-schema-current";

// biome-ignore lint/suspicious/noExplicitAny: -- profiles are inspected structurally
type Json = any;

const root: Json = JSON.parse(committed);
const leaf: Json = JSON.parse(committedLeaf);
const LEGACY_BUSINESS = `${OFFICIAL.profile}#/$defs/business_profile`;
const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** A deployed store in test mode, so the payment handler entries are there to check. */
const shop = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com", PAYMENT_TEST_MODE: "true" });
const shopRoot: Json = discoveryProfile(shop, signingKeys, CURRENT_VERSION);
const shopLeaf: Json = discoveryProfile(shop, signingKeys, LEGACY_VERSION);

/** Every `dev.ucp.*` service, capability and extension entry's version. */
function ucpEntryVersions(profile: Json): string[] {
  return ["services", "capabilities"].flatMap((kind) =>
    Object.entries<Json[]>(profile.ucp[kind])
      .filter(([name]) => name.startsWith("dev.ucp."))
      .flatMap(([, entries]) => entries.map((e) => e.version)),
  );
}

describe("/.well-known/ucp, the 2026-08-25 root profile", () => {
  it("validates against 2026-08-25 profile.json business_schema, as committed and for a store in test mode", () => {
    expect(validateCurrent(CURRENT.businessProfile, root).errors).toEqual([]);
    expect(validateCurrent(CURRENT.businessProfile, shopRoot).errors).toEqual([]);
    expect(root.ucp.version).toBe("2026-08-25");
    // wrangler.toml leaves PAYMENT_TEST_MODE off: the deployed store offers no test handler.
    expect(root.ucp.payment_handlers).toEqual({});
  });

  it("carries exactly its own version on every dev.ucp.* entry, and the 2026-08-25 registry", () => {
    for (const profile of [root, shopRoot]) {
      expect(new Set(ucpEntryVersions(profile))).toEqual(new Set([CURRENT_VERSION]));
    }
    // The 2026-08-25 registry's entries, and every capability a tool needs.
    const registry = businessCapabilities(CURRENT_VERSION);
    for (const [name, entries] of Object.entries<Json[]>(root.ucp.capabilities)) {
      expect(registry[name], name).toBeDefined();
      for (const entry of entries) expect(entry.schema, name).toBe(registry[name]?.[0]?.schema);
    }
    const gating = new Set([...TOOLS.values()].map((t) => t.capability));
    for (const name of gating) expect(root.ucp.capabilities).toHaveProperty([name]);
    for (const service of root.ucp.services["dev.ucp.shopping"]) {
      expect(service.spec).toBe("https://ucp.dev/2026-08-25/specification/overview");
      expect(service.schema).toMatch(
        /^https:\/\/ucp\.dev\/2026-08-25\/services\/shopping\/(mcp\.openrpc|rest\.openapi|embedded\.openrpc)\.json$/,
      );
    }
  });

  it("names the 2026-04-08 leaf on the store's own origin in supported_versions", () => {
    expect(root.ucp.supported_versions).toEqual({
      "2026-04-08": "http://localhost:8787/.well-known/ucp-profiles/2026-04-08",
    });
    expect(shopRoot.ucp.supported_versions).toEqual({
      "2026-04-08": "https://shop.example.com/.well-known/ucp-profiles/2026-04-08",
    });
  });

  it("publishes the keys as a JWK Set in keys[], and the same keys as signing_keys[] for 2026-04-08 verifiers", () => {
    expect(root.keys.map((k: Json) => k.kid)).toEqual(signingKeys.map((k) => k.kid));
    for (const key of root.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", use: "sig", alg: "ES256" });
      for (const member of PRIVATE_JWK_MEMBERS) expect(key).not.toHaveProperty(member);
    }
    expect(root.signing_keys).toEqual(root.keys);
  });

  it("binds every entry's schema host to its name on an https store: a 2026-08-25 platform drops none", () => {
    expect(Object.keys(shopRoot.ucp.payment_handlers)).toEqual(["com.example.shop.test_payment"]);
    expect(unboundEntries(shopRoot.ucp)).toEqual([]);
    // A localhost store's test handler cannot bind (single-label host, digest §6.13): said, not hidden.
    const local = discoveryProfile(buildConfig({ PAYMENT_TEST_MODE: "true" }), signingKeys);
    expect(unboundEntries(local.ucp)).toEqual([
      "payment_handlers localhost.test_payment: schema http://localhost:8787/ucp/payment/test/schema.json is not https",
    ]);
  });
});

describe("payment handlers in 2026-08-25's shapes", () => {
  const registry: HandlerRegistry = {
    "com.example.pay": [
      {
        id: "pay",
        version: "2026-04-08",
        spec: "https://pay.example.com/spec",
        schema: "https://pay.example.com/schema.json",
        available_instruments: [{ type: "card", constraints: { brands: ["visa", "mastercard"] } }, { type: "wallet" }],
        config: {},
      },
    ],
    "com.example.wallet": [
      {
        id: "wallet",
        version: "2026-04-08",
        spec: "https://wallet.example.com/spec",
        schema: "https://wallet.example.com/schema.json",
        available_instruments: [{ type: "wallet" }],
        config: {},
      },
    ],
  };

  it("writes card brand constraints as a Constraint Expression, and orders several handlers with map_order", () => {
    const handlers = currentHandlers(registry);
    expect(handlers["com.example.pay"]?.[0]?.available_instruments).toEqual([
      { type: "card", constraints: { properties: { brand: { enum: ["visa", "mastercard"] } } } },
      { type: "wallet" },
    ]);
    const profile = {
      ...shopRoot,
      ucp: { ...shopRoot.ucp, payment_handlers: handlers, ...handlerOrder(handlers) },
    };
    expect(profile.ucp.map_order).toEqual({ payment_handlers: ["com.example.pay", "com.example.wallet"] });
    expect(validateCurrent(CURRENT.businessProfile, profile).errors).toEqual([]);
    // The 2026-04-08 shape is what 2026-08-25 refuses (digest §5.1): the translation is needed.
    const untranslated = { ...profile, ucp: { ...profile.ucp, payment_handlers: registry } };
    if (currentSchemasPresent) expect(validateCurrent(CURRENT.businessProfile, untranslated).valid).toBe(false);
    expect(handlerOrder({ "com.example.pay": registry["com.example.pay"] ?? [] })).toEqual({});
  });

  it("refuses a constraint it has no 2026-08-25 form for, rather than widen what is offered", () => {
    const odd = {
      "com.example.pay": [
        {
          ...registry["com.example.pay"]?.[0],
          available_instruments: [{ type: "card", constraints: { networks: ["x"] } }],
        },
      ],
    };
    expect(() => currentHandlers(odd as HandlerRegistry)).toThrow(/"networks" has no 2026-08-25 form/);
  });
});

describe("/.well-known/ucp-profiles/2026-04-08, the 2026-04-08 leaf", () => {
  it("validates against 2026-04-08 discovery/profile_schema.json's business profile", () => {
    expect(validateOfficial(LEGACY_BUSINESS, leaf).errors).toEqual([]);
    expect(validateOfficial(LEGACY_BUSINESS, shopLeaf).errors).toEqual([]);
    // and the business variant's requirements the schema leaves to prose
    for (const entries of Object.values<Json[]>(leaf.ucp.capabilities)) {
      for (const entry of entries) {
        expect(entry.spec).toMatch(/^https:\/\/ucp\.dev\/2026-04-08\//);
        expect(entry.schema).toMatch(/^https:\/\/ucp\.dev\/2026-04-08\//);
      }
    }
  });

  it("is a leaf of its key's version: 2026-04-08 everywhere, signing_keys[], no supported_versions or map_order", () => {
    const key = Object.keys(root.ucp.supported_versions)[0] as UcpVersion;
    expect(leaf.ucp.version).toBe(key);
    for (const profile of [leaf, shopLeaf]) {
      expect(new Set(ucpEntryVersions(profile))).toEqual(new Set([LEGACY_VERSION]));
      expect(profile.ucp).not.toHaveProperty("supported_versions");
      expect(profile.ucp).not.toHaveProperty("map_order");
      expect(profile).not.toHaveProperty("keys");
    }
    expect(leaf.ucp.capabilities).toEqual(businessCapabilities(LEGACY_VERSION));
    expect(leaf.signing_keys).toEqual(root.keys);
    for (const k of leaf.signing_keys) for (const member of PRIVATE_JWK_MEMBERS) expect(k).not.toHaveProperty(member);
  });

  it("advertises the mcp transport at the Worker's endpoint and only implemented capabilities", () => {
    const [binding] = leaf.ucp.services["dev.ucp.shopping"];
    expect(binding).toMatchObject({
      version: "2026-04-08",
      transport: "mcp",
      endpoint: "http://localhost:8787/ucp/mcp",
    });
    // Every root capability has tools; every extension extends an advertised capability.
    const legacy = businessCapabilities(LEGACY_VERSION);
    const roots = Object.entries(legacy).filter(([, [entry]]) => entry?.extends === undefined);
    const gating = new Set([...TOOLS.values()].map((t) => t.capability));
    expect([...gating].sort()).toEqual(roots.map(([name]) => name).sort());
    for (const [, [entry]] of Object.entries(legacy)) {
      const parents = entry?.extends === undefined ? [] : [entry.extends].flat();
      for (const parent of parents) expect(Object.keys(legacy)).toContain(parent);
    }
  });

  it("names the same endpoints as the root: the request's profile picks the version, not the URL", () => {
    const endpoints = (p: Json) => p.ucp.services["dev.ucp.shopping"].map((s: Json) => [s.transport, s.endpoint]);
    expect(endpoints(leaf)).toEqual(endpoints(root));
  });
});

describe("both profiles are served as public, cacheable JSON (the e2e test checks the live headers)", () => {
  it.each(["/.well-known/ucp", "/.well-known/ucp-profiles/*"])("%s", (rule) => {
    const block = headers.split(/\n(?=\S)/).find((b) => b.split("\n")[0] === rule);
    expect(block, `a ${rule} rule in public/_headers`).toBeDefined();
    expect(block).toMatch(/\n {2}Content-Type: application\/json\n/);
    expect(block).toMatch(/\n {2}Access-Control-Allow-Origin: \*/);
    const maxAge = Number(/\n {2}Cache-Control: public, max-age=(\d+)/.exec(block ?? "")?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(60);
  });
});
