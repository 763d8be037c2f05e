/**
 * Two stores from one repository: the top-level store A and the [env.b] recipe documented at
 * the end of wrangler.toml, each deployed (dry run) through `npm run deploy`. Each bundle has
 * every binding, and each store's discovery names its own endpoint and keys; deploying B
 * leaves A's discovery untouched.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeStore, runScript, type Store } from "./store-fixture";

const BINDINGS = [
  "CART (CartObject)",
  "INVENTORY (InventoryObject)",
  "CHECKOUT (CheckoutObject)",
  "ORDER (OrderObject)",
  "ORDER_INDEX (OrderIndexObject)",
  "CONSOLE_SESSION (ConsoleSessionObject)",
  "RATE_LIMIT_ANONYMOUS",
  "RATE_LIMIT_AUTHENTICATED",
  "TRUST",
  "SHIPPING",
  "TAX",
  "DISCOUNTS",
  "MERCHANT_CURRENCY",
  "CART_TTL_HOURS",
  "PROFILE_FALLBACK",
];

let store: Store;
const discovery = (dir: string) => JSON.parse(readFileSync(path.join(store.dir, dir, ".well-known/ucp"), "utf8"));
const leafOf = (dir: string) =>
  JSON.parse(readFileSync(path.join(store.dir, dir, ".well-known/ucp-profiles/2026-04-08"), "utf8"));
const deploy = (env: string) =>
  runScript("scripts/deploy.ts", [
    "--config",
    store.config,
    "--env",
    env,
    "--dry-run",
    "--outdir",
    path.join(store.dir, `out-${env || "a"}`),
  ]);

describe("two stores from one wrangler.toml", () => {
  beforeAll(async () => {
    store = await makeStore((t) => t, true);
  });

  it("dry-runs store A and store B, each with all its bindings, its own discovery and keys", () => {
    const a = deploy("");
    expect(a.status, a.output).toBe(0);
    const aDiscovery = readFileSync(path.join(store.dir, "public/.well-known/ucp"), "utf8");

    // B's folder predates the 2026-04-08 leaf: its own _headers has only the root's rule.
    const OLD_HEADERS =
      "/.well-known/ucp\n  Content-Type: application/json\n  Cache-Control: public, max-age=300\n/logo.png\n  Cache-Control: public, max-age=86400\n";
    mkdirSync(path.join(store.dir, "stores/b/public"), { recursive: true });
    writeFileSync(path.join(store.dir, "stores/b/public/_headers"), OLD_HEADERS);
    const b = deploy("b");
    expect(b.status, b.output).toBe(0);
    expect(b.output).not.toMatch(/WARNING/);
    for (const [run, kv, origin] of [
      [a, "a000000000000000000000000000000", "https://store-a.example.com"],
      [b, "b00000000000000000000000000000b", "https://store-b.example.com"],
    ] as const) {
      for (const binding of BINDINGS) expect(run.output).toContain(`env.${binding}`);
      expect(run.output).toMatch(new RegExp(`env\\.CATALOG \\(${kv}0\\)`));
      expect(run.output).toMatch(new RegExp(`env\\.AUTH \\(${kv}1\\)`));
      expect(run.output).toContain(`env.MERCHANT_ORIGIN ("${origin}")`);
    }
    expect(b.output).toContain('env.MERCHANT_CURRENCY ("EUR")');

    // Building B's discovery wrote only B's folder.
    expect(readFileSync(path.join(store.dir, "public/.well-known/ucp"), "utf8")).toBe(aDiscovery);
    const endpoint = (d: { ucp: { services: Record<string, Array<{ endpoint: string }>> } }) =>
      d.ucp.services["dev.ucp.shopping"]?.[0]?.endpoint;
    const kids = (d: { signing_keys: Array<{ kid: string }> }) => d.signing_keys.map((k) => k.kid);
    expect(endpoint(discovery("public"))).toBe("https://store-a.example.com/ucp/mcp");
    expect(kids(discovery("public"))).toEqual(["store-a-1"]);
    expect(endpoint(discovery("stores/b/public"))).toBe("https://store-b.example.com/ucp/mcp");
    expect(kids(discovery("stores/b/public"))).toEqual(["store-b-1"]);
    // Each store's root names its own 2026-04-08 leaf, written beside it with that store's keys.
    for (const [dir, origin, kid] of [
      ["public", "https://store-a.example.com", "store-a-1"],
      ["stores/b/public", "https://store-b.example.com", "store-b-1"],
    ] as const) {
      const leafUrl = `${origin}/.well-known/ucp-profiles/2026-04-08`;
      expect(discovery(dir).ucp.supported_versions).toEqual({ "2026-04-08": leafUrl });
      const leaf = leafOf(dir);
      expect(leaf.ucp.version).toBe("2026-04-08");
      expect(endpoint(leaf)).toBe(`${origin}/ucp/mcp`);
      expect(kids(leaf)).toEqual([kid]);
    }
    // B keeps its own rules and gains the leaf's.
    const bHeaders = readFileSync(path.join(store.dir, "stores/b/public/_headers"), "utf8");
    expect(bHeaders.startsWith(OLD_HEADERS)).toBe(true);
    expect(bHeaders).toContain(
      "/.well-known/ucp-profiles/*\n  Content-Type: application/json\n  Cache-Control: public, max-age=300\n",
    );
    // Two dry-run bundles take a few seconds each.
  }, 60_000);
});
