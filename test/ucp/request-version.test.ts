/**
 * Issue 23: the request's version decides. The version is the `ucp.version` of the platform
 * profile the call references; negotiation runs against our registry of that version only
 * (exact equality), every answer echoes it, and any other version is version_unsupported.
 */
import { describe, expect, it } from "vitest";
import { callTool, PROFILES } from "../helpers/mcp";

const search = { catalog: { query: "jacket" } };
const V2 = `${PROFILES}/v2026-08-25`;

describe("the platform profile's version decides the answer's", () => {
  it.each([
    ["a 2026-04-08 profile", "2026-04-08", `${PROFILES}/full.json`],
    ["a 2026-08-25 profile", "2026-08-25", `${V2}/full.json`],
    ["Shopify's untidy 2026-08-25 agent profile (no spec or schema on checkout)", "2026-08-25", `${V2}/untidy.json`],
  ])("%s is answered in %s, with capabilities of that version only", async (_, version, profile) => {
    const reply = await callTool("search_catalog", search, profile);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const ucp = reply.body.result.structuredContent.ucp;
    expect(ucp.version).toBe(version);
    for (const entries of Object.values(ucp.capabilities ?? {}) as Array<Array<{ version: string }>>) {
      for (const entry of entries) expect(entry.version).toBe(version);
    }
  });

  it("a 2026-08-25 profile whose dev.ucp.* entries are 2026-04-08 meets nothing (no fallback to the leaf)", async () => {
    const reply = await callTool("search_catalog", search, `${V2}/old-entries.json`);
    expect(reply.status).toBe(200);
    expect(reply.body.result.structuredContent).toMatchObject({
      ucp: { version: "2026-08-25", status: "error" },
      messages: [{ code: "capabilities_incompatible", severity: "unrecoverable" }],
    });
  });

  it.each([
    ["older", `${PROFILES}/old-version.json`, "2026-01-11"],
    ["newer", `${PROFILES}/v2099-01-01.json`, "2099-01-01"],
  ])("an %s version is version_unsupported (-32001, HTTP 422) naming both versions we speak", async (_, profile, v) => {
    const reply = await callTool("search_catalog", search, profile);
    expect(reply.status).toBe(422);
    expect(reply.body.error).toMatchObject({
      code: -32001,
      message: "Protocol version not supported",
      data: { code: "version_unsupported", continue_url: expect.any(String) },
    });
    expect(reply.body.error.data.content).toBe(
      `Protocol version ${v} is not supported. This business supports versions 2026-08-25 and 2026-04-08.`,
    );
  });
});
