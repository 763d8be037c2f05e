/**
 * Both profiles as `npm start` serves them (issue 23): each answers 200 itself (no redirect,
 * which profile fetches must not follow) as public, cacheable JSON; and a 2026-04-08 agent
 * that follows the root's `supported_versions` as the spec tells it to reaches a profile
 * whose endpoints buy in 2026-04-08.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "./server";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

/** Not fetchable locally: PROFILE_FALLBACK=assume-compatible makes it a 2026-04-08 platform. */
const LEGACY_AGENT = "https://platform.example/profiles/v2026-04-08/agent.json";

let server: LocalServer | undefined;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

function origin(): string {
  if (!server) throw new Error("the local server did not start");
  return server.baseUrl;
}

async function profileAt(url: string): Promise<Json> {
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type"), url).toMatch(/^application\/json\b/);
  expect(res.headers.get("cache-control"), url).toBe("public, max-age=300");
  expect(res.headers.get("access-control-allow-origin"), url).toBe("*");
  return res.json();
}

describe("discovery as npm start serves it", () => {
  it("serves the root and the 2026-04-08 leaf, each without redirect, as public cacheable JSON", async () => {
    const root = await profileAt(`${origin()}/.well-known/ucp`);
    expect(root.ucp.version).toBe("2026-08-25");
    const leaf = await profileAt(`${origin()}/.well-known/ucp-profiles/2026-04-08`);
    expect(leaf.ucp.version).toBe("2026-04-08");
  });

  it("leads a 2026-04-08 agent through supported_versions to endpoints that answer it in 2026-04-08", async () => {
    // What a 2026-04-08 platform does (overview §Protocol Version): the root is not its
    // version, so it takes the leaf the root names, and uses it only if its version matches.
    const root = await profileAt(`${origin()}/.well-known/ucp`);
    const leafUrl: string = root.ucp.supported_versions["2026-04-08"];
    expect(leafUrl).toBe(`${origin()}/.well-known/ucp-profiles/2026-04-08`);
    const leaf = await profileAt(leafUrl);
    expect(leaf.ucp.version).toBe("2026-04-08");
    expect(leaf.ucp).not.toHaveProperty("supported_versions");
    const services: Json[] = leaf.ucp.services["dev.ucp.shopping"];
    const mcp = services.find((s) => s.transport === "mcp");
    const restBinding = services.find((s) => s.transport === "rest");
    expect(mcp.endpoint.startsWith(`${origin()}/`)).toBe(true);

    const rpc = await fetch(mcp.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "search_catalog",
          arguments: { meta: { "ucp-agent": { profile: LEGACY_AGENT } }, catalog: { query: "shoe" } },
        },
      }),
    });
    const answer: Json = await rpc.json();
    expect(rpc.status, JSON.stringify(answer)).toBe(200);
    expect(answer.result.structuredContent.ucp.version).toBe("2026-04-08");
    expect(answer.result.structuredContent.products.length).toBeGreaterThan(0);

    const search = await fetch(`${restBinding.endpoint}/catalog/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "ucp-agent": `profile="${LEGACY_AGENT}"` },
      body: JSON.stringify({ query: "shoe" }),
    });
    const found: Json = await search.json();
    expect(search.status, JSON.stringify(found)).toBe(200);
    expect(found.ucp.version).toBe("2026-04-08");
  });
});
