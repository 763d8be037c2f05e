import { describe, expect, it } from "vitest";
import committed from "../public/.well-known/ucp?raw";
import headers from "../public/_headers?raw";
import { TOOLS } from "../src/tools";
import { BUSINESS_CAPABILITIES } from "../src/ucp/capabilities";
import { OFFICIAL, validateOfficial } from "./helpers/official-schema";

const profile = JSON.parse(committed);

describe("/.well-known/ucp", () => {
  it("publishes the merchant's public signing keys, never a private part", () => {
    expect(profile.signing_keys.map((k: { kid: string }) => k.kid)).toContain("demo-dev-only");
    for (const key of profile.signing_keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", use: "sig", alg: "ES256" });
      expect(key).not.toHaveProperty("d");
    }
  });

  it("validates against the official discovery profile schema", () => {
    expect(validateOfficial(OFFICIAL.profile, profile).errors).toEqual([]);
    // and the business variant's requirements the schema leaves to prose
    // wrangler.toml leaves PAYMENT_TEST_MODE off: the deployed store offers no test handler.
    expect(profile.ucp.payment_handlers).toEqual({});
    for (const entries of Object.values<Array<{ spec: string; schema: string }>>(profile.ucp.capabilities)) {
      for (const entry of entries) {
        expect(entry.spec).toMatch(/^https:\/\/ucp\.dev\/2026-04-08\//);
        expect(entry.schema).toMatch(/^https:\/\/ucp\.dev\/2026-04-08\//);
      }
    }
  });

  it("advertises the mcp transport at the Worker's endpoint and only implemented capabilities", () => {
    const [binding] = profile.ucp.services["dev.ucp.shopping"];
    expect(binding).toMatchObject({
      version: "2026-04-08",
      transport: "mcp",
      endpoint: "http://localhost:8787/ucp/mcp",
    });
    expect(Object.keys(profile.ucp.capabilities).sort()).toEqual(Object.keys(BUSINESS_CAPABILITIES).sort());
    // Every root capability has tools; every extension extends an advertised capability.
    const roots = Object.entries(BUSINESS_CAPABILITIES).filter(([, [entry]]) => entry?.extends === undefined);
    const gating = new Set([...TOOLS.values()].map((t) => t.capability));
    expect([...gating].sort()).toEqual(roots.map(([name]) => name).sort());
    for (const [, [entry]] of Object.entries(BUSINESS_CAPABILITIES)) {
      const parents = entry?.extends === undefined ? [] : [entry.extends].flat();
      for (const parent of parents) expect(Object.keys(BUSINESS_CAPABILITIES)).toContain(parent);
    }
  });

  it("is served as public, cacheable JSON (the e2e test checks the live headers)", () => {
    expect(headers).toMatch(
      /^\/\.well-known\/ucp\n {2}Content-Type: application\/json\n {2}Cache-Control: public, max-age=(\d+)/m,
    );
    const maxAge = Number(/max-age=(\d+)/.exec(headers)?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(60);
  });
});
