/** Discovery advertises the REST binding beside MCP, and its endpoint is where the operations answer. */

import { describe, expect, it } from "vitest";
import committed from "../../public/.well-known/ucp?raw";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { rest } from "./rest-client";

const profile = JSON.parse(committed);

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("the rest service binding in /.well-known/ucp", { timeout: 30_000 }, () => {
  it("names the OpenAPI schema and an endpoint without a trailing slash, and the profile stays valid", async () => {
    const bindings = profile.ucp.services["dev.ucp.shopping"];
    expect(bindings.map((b: { transport: string }) => b.transport)).toEqual(["mcp", "rest"]);
    const binding = bindings[1];
    expect(binding).toEqual({
      version: "2026-04-08",
      spec: "https://ucp.dev/2026-04-08/specification/overview",
      transport: "rest",
      schema: "https://ucp.dev/2026-04-08/services/shopping/rest.openapi.json",
      endpoint: "http://localhost:8787/ucp",
    });
    expect(validateOfficial(OFFICIAL.profile, profile).errors).toEqual([]);
    // `{endpoint}/catalog/search` as a platform builds it from the binding (the path part; tests run on another origin).
    const base = new URL(binding.endpoint).pathname;
    expect(base).toBe("/ucp");
    const reply = await rest("POST", "/catalog/search", { body: { query: "jacket" } });
    expect(reply.status).toBe(200);
  });
});
