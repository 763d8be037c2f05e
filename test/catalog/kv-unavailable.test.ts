/**
 * The catalog's KV store failing (a read that throws; local workerd does so once its SQLite
 * heap is full, docs/benchmarks.md) is the store being unavailable, not a bug: the agent gets
 * -32000 / 503 with retry_after over MCP, 503 over REST, on a buyer's page, in the merchant's
 * console and its JSON API, never -32603 / 500. A refresh that fails while the isolate holds
 * an earlier snapshot keeps serving that snapshot. (A console upload whose writes fail is a
 * background load that retries, pauses and resumes: test/admin-console/catalog-load-job.test.ts.)
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogSnapshot, resetCatalogCache } from "../../src/catalog/kv-catalog";
import worker from "../../src/index";
import { ADMIN_TOKEN, signIn } from "../helpers/console";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, meta } from "../helpers/mcp";

const KV_FAILURE = "internal error; reference = kv0unavailable0test";

type KvMethod = (...args: unknown[]) => Promise<unknown>;

/** The real catalog namespace, with the methods named in `replaced` answered by them instead. */
function kvWith(replaced: (real: (name: string) => KvMethod) => Record<string, KvMethod>): KVNamespace {
  const real = (name: string) => (Reflect.get(env.CATALOG, name) as KvMethod).bind(env.CATALOG);
  const methods = replaced(real);
  return new Proxy(env.CATALOG, {
    get(target, prop) {
      if (typeof prop === "string" && Object.hasOwn(methods, prop)) return methods[prop];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Every read rejects with what `error` makes. */
const readsRejecting = (error: () => Error) =>
  kvWith(() => ({ get: () => Promise.reject(error()), getWithMetadata: () => Promise.reject(error()) }));

/** The real catalog namespace, with every read failing. */
const failingKv = () => readsRejecting(() => new Error(KV_FAILURE));

/** The real catalog namespace whose every read finds text that is not JSON (corrupted content). */
const corruptKv = () => readsRejecting(() => new SyntaxError("Unexpected token 'x', \"x{\" is not valid JSON"));

/** The Worker answering `request` with `catalog` as its CATALOG binding. */
function fetchWith(catalog: KVNamespace, request: Request): Promise<Response> {
  return worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, CATALOG: catalog } as Env);
}

async function send(request: Request, catalog: KVNamespace) {
  const res = await fetchWith(catalog, request);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** A console page opened by a signed-in merchant's browser (its own address: page budgets count per address). */
async function consolePage(path: string, ip: string, catalog: KVNamespace): Promise<Response> {
  const browser = await signIn({ ip });
  resetCatalogCache();
  return fetchWith(
    catalog,
    new Request(`https://shop.example.com${path}`, {
      headers: { cookie: browser.cookie ?? "", "cf-connecting-ip": ip, accept: "text/html" },
    }),
  );
}

/** The storefront's home page as a buyer's browser asks for it. */
const storefront = () => new Request("https://shop.example.com/", { headers: { "cf-connecting-ip": CLIENT_IP } });

function mcpSearch(query = "shirt") {
  return new Request(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_catalog", arguments: { meta: meta(), catalog: { query } } },
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

  it("REST, an authenticated caller: the 503 still says its tier (ucp-trust-tier)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const issued = await fetchWith(
      env.CATALOG,
      new Request("https://shop.example.com/admin/api-keys", {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ profile: FULL_PROFILE, label: "kv outage" }),
      }),
    );
    expect(issued.status).toBe(201);
    const { api_key: apiKey } = (await issued.json()) as { api_key: string };
    resetCatalogCache();
    const request = restSearch();
    request.headers.set("x-api-key", apiKey);
    const reply = await send(request, failingKv());
    expect(reply.status, JSON.stringify(reply.body)).toBe(503);
    expect(reply.headers.get("ucp-trust-tier")).toBe("authenticated");
  });

  it("the storefront page: 503 with a try-again page, not an error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const res = await fetchWith(failingKv(), storefront());
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

  it("the merchant's console page: 503 with a try-again page, not an internal error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await consolePage("/admin/catalog", "203.0.113.141", failingKv());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Please try again");
    // Still the console: its navigation (and sign-out form) is on the page.
    expect(html).toContain('action="/admin/sign-out"');
  });

  it("the admin JSON API: 503 unavailable with Retry-After, not an internal error", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const res = await fetchWith(
      failingKv(),
      new Request("https://shop.example.com/admin/inventory/var_abc123_m", {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "cf-connecting-ip": CLIENT_IP },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({ error: "unavailable" });
  });

  it("corrupted catalog content is an internal error, shown to a person as a page, not as JSON", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    resetCatalogCache();
    const buyer = await fetchWith(corruptKv(), storefront());
    expect(buyer.status).toBe(500);
    expect(buyer.headers.get("content-type")).toContain("text/html");
    const page = await buyer.text();
    expect(page).toContain("Something went wrong");
    expect(page).not.toMatch(/SyntaxError|at \S+ \(/);

    const merchant = await consolePage("/admin/catalog", "203.0.113.143", corruptKv());
    expect(merchant.status).toBe(500);
    expect(merchant.headers.get("content-type")).toContain("text/html");
    const console_ = await merchant.text();
    expect(console_).toContain("Something went wrong");
    expect(console_).toContain('action="/admin/sign-out"');
    expect(console_).not.toContain("SyntaxError");
    // The cause is logged, with its stack, for the merchant's `wrangler tail`.
    expect(errors.mock.calls.some((call) => call[0] === "unhandled" && /SyntaxError/.test(String(call[1])))).toBe(true);
  });
});
