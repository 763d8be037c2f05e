/**
 * Both profiles advertise the REST binding beside MCP, each at its own version, at one
 * endpoint where the operations answer in the version of the calling platform's profile.
 */

import { describe, expect, it } from "vitest";
import committed from "../../public/.well-known/ucp?raw";
import committedLeaf from "../../public/.well-known/ucp-profiles/2026-04-08?raw";
import { FULL_PROFILE, PROFILES } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { CURRENT, validateCurrent } from "../helpers/official-schema-current";
import { rest } from "./rest-client";

const root = JSON.parse(committed);
const leaf = JSON.parse(committedLeaf);

const restBinding = (version: string) => ({
  version,
  spec: `https://ucp.dev/${version}/specification/overview`,
  transport: "rest",
  schema: `https://ucp.dev/${version}/services/shopping/rest.openapi.json`,
  endpoint: "http://localhost:8787/ucp",
});

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("the rest service binding in each profile", { timeout: 30_000 }, () => {
  it("names its version's OpenAPI schema and an endpoint without a trailing slash, and each profile stays valid", () => {
    for (const [profile, version] of [
      [root, "2026-08-25"],
      [leaf, "2026-04-08"],
    ] as const) {
      const bindings = profile.ucp.services["dev.ucp.shopping"];
      expect(bindings.map((b: { transport: string }) => b.transport)).toEqual(["mcp", "rest", "embedded"]);
      expect(bindings[1]).toEqual(restBinding(version));
    }
    expect(validateCurrent(CURRENT.businessProfile, root).errors).toEqual([]);
    expect(validateOfficial(`${OFFICIAL.profile}#/$defs/business_profile`, leaf).errors).toEqual([]);
  });

  it.each([
    ["2026-08-25", root, `${PROFILES}/v2026-08-25/full.json`],
    ["2026-04-08", leaf, FULL_PROFILE],
  ])(
    "a %s platform searches at the endpoint its profile names and is answered in that version",
    async (version, profile, platform) => {
      // `{endpoint}/catalog/search` as a platform builds it from the binding (the path part; tests run on another origin).
      const base = new URL(profile.ucp.services["dev.ucp.shopping"][1].endpoint).pathname;
      expect(base).toBe("/ucp");
      const reply = await rest("POST", "/catalog/search", { body: { query: "jacket" }, profile: platform });
      expect(reply.status).toBe(200);
      expect(reply.body.ucp.version).toBe(version);
    },
  );
});
