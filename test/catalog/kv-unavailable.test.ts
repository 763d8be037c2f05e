/**
 * The catalog's KV store failing (a read that throws; local workerd does so once its SQLite
 * heap is full, docs/benchmarks.md) is the store being unavailable, not a bug: the agent gets
 * -32000 / 503 with retry_after over MCP, 503 over REST and on a buyer's page, never -32603 /
 * 500. A refresh that
 * fails while the isolate holds an earlier snapshot keeps serving that snapshot.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogSnapshot, resetCatalogCache } from "../../src/catalog/kv-catalog";
import worker from "../../src/index";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, meta } from "../helpers/mcp";

const KV_FAILURE = "internal error; reference = kv0unavailable0test";

/** The real catalog namespace, with every read failing. */
function failingKv() {
  return new Proxy(env.CATALOG, {
    get(target, prop) {
      if (prop === "get" || prop === "getWithMetadata") return () => Promise.reject(new Error(KV_FAILURE));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function send(request: Request, catalog: KVNamespace) {
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    {
      ...env,
      CATALOG: catalog,
    } as Env,
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

function mcpSearch() {
  return new Request(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_catalog", arguments: { meta: meta(), catalog: { query: "shirt" } } },
    }),
  });
}

function mcpGetProduct() {
  return new Request(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_product", arguments: { meta: meta(), catalog: { id: "prod_abc123" } } },
    }),
  });
}

function restSearch() {
  return new Request("https://shop.example.com/ucp/catalog/search", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "cf-connecting-ip": CLIENT_IP,
      "ucp-agent": `profile="${FULL_PROFILE}"`,
    },
    body: JSON.stringify({ query: "shirt" }),
  });
}

describe("the catalog's KV store unavailable", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    resetCatalogCache();
  });

  it("MCP: -32000 with HTTP 503 and retry_after, not an internal error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const reply = await send(mcpSearch(), failingKv());
    expect(reply.status).toBe(503);
    expect(reply.body.error).toMatchObject({ code: -32000, data: { retry_after: 1 } });
  });

  it("REST: 503 with Retry-After, not 500", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const reply = await send(restSearch(), failingKv());
    expect(reply.status, JSON.stringify(reply.body)).toBe(503);
    expect(reply.headers.get("retry-after")).toBe("1");
  });

  it("the storefront page: 503 with a try-again page, not an error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const res = await worker.fetch(
      new Request("https://shop.example.com/", { headers: { "cf-connecting-ip": CLIENT_IP } }) as Request<
        unknown,
        IncomingRequestCfProperties
      >,
      { ...env, CATALOG: failingKv() } as Env,
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.text()).toContain("Please try again");
  });

  it("a product read that fails, with the catalog itself fresh: 503 as well", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    expect(await catalogSnapshot(env.CATALOG, Date.now())).not.toBeNull();
    const reply = await send(mcpGetProduct(), failingKv());
    expect(reply.status).toBe(503);
    expect(reply.body.error).toMatchObject({ code: -32000, data: { retry_after: 1 } });
  });

  it("a refresh that fails keeps serving the snapshot the isolate already has", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const now = Date.now();
    const loaded = await catalogSnapshot(env.CATALOG, now);
    expect(loaded, "the test store has a catalog").not.toBeNull();
    // Past the refresh period the manifest is read again, and that read fails.
    await expect(catalogSnapshot(failingKv(), now + 60_000)).resolves.toBe(loaded);
    // Without an earlier snapshot there is nothing to serve: the failure is named as such.
    resetCatalogCache();
    await expect(catalogSnapshot(failingKv(), now)).rejects.toThrow(/catalog storage unavailable/);
    // Nor is "no catalog loaded" served for a failed read: the store would look empty.
    const empty = { get: async () => null } as unknown as KVNamespace;
    await expect(catalogSnapshot(empty, now)).resolves.toBeNull();
    await expect(catalogSnapshot(failingKv(), now + 60_000)).rejects.toThrow(/catalog storage unavailable/);
  });
});
