/**
 * check:config, discovery and deploy against a temporary wrangler.toml, run as a merchant
 * runs them: every mistake named with where it is, and nothing written or deployed after one.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readVars } from "../../scripts/lib/wrangler-config";
import { makeStore, runScript } from "./store-fixture";

const PERCENT = (t: string) => t.replace('type = "fixed_amount"', 'type = "percent"');

describe("readVars reads wrangler.toml as wrangler does", () => {
  it("understands single quotes, inline tables and comments after table headers", async () => {
    const store = await makeStore((t) =>
      t
        .replace('MERCHANT_ORIGIN = "https://store-a.example.com"', "MERCHANT_ORIGIN = 'https://single.example.com'")
        .replace("[vars.TAX]", "[vars.TAX] # rates by region")
        .replace('MERCHANT_NAME = "Demo Outfitters"', "MERCHANT_NAME = 'Demo Outfitters'\nINLINE = { a = 1 }"),
    );
    const vars = readVars(store.config);
    expect(vars.MERCHANT_ORIGIN).toBe("https://single.example.com");
    expect(vars.INLINE).toEqual({ a: 1 });
    expect(vars.TAX).toMatchObject({ shipping_taxable: false });
    expect((vars.DISCOUNTS as unknown[]).length).toBe(4);
  });
});

// Each case runs a real script (esbuild + wrangler's reader): seconds, more on a busy machine.
const SCRIPT = { timeout: 30_000 };

describe("npm run check:config", SCRIPT, () => {
  it("passes the repository's own wrangler.toml", () => {
    const run = runScript("scripts/check-config.ts", []);
    expect(run.output).toMatch(/configuration OK/);
    expect(run.status).toBe(0);
  });

  it('names a type = "percent" discount where it is, and exits 1', async () => {
    const store = await makeStore(PERCENT);
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: \[vars\.DISCOUNTS\]\[1\]\.type: .*"percentage"/m);
    expect(run.stderr).toMatch(/^error: 1 problem in wrangler\.toml/m);
  });

  it("reads a single-quoted origin, and refuses it for deploy only when it is not public https", async () => {
    const single = await makeStore((t) =>
      t.replace('MERCHANT_ORIGIN = "https://store-a.example.com"', "MERCHANT_ORIGIN = 'https://single.example.com'"),
    );
    const ok = runScript("scripts/check-config.ts", ["--config", single.config, "--deploy"]);
    expect(ok.output).toMatch(/configuration OK \(https:\/\/single\.example\.com, ready to deploy\)/);
    expect(ok.status).toBe(0);
    const local = await makeStore((t) =>
      t.replace('MERCHANT_ORIGIN = "https://store-a.example.com"', "MERCHANT_ORIGIN = 'http://localhost:8787'"),
    );
    const refused = runScript("scripts/check-config.ts", ["--config", local.config, "--deploy"]);
    expect(refused.stderr).toMatch(
      /\[vars\.MERCHANT_ORIGIN\]: a deployed store needs its public https origin, got http:\/\/localhost:8787/,
    );
    expect(refused.status).toBe(1);
  });

  it("names every other kind of mistake with where it is", async () => {
    const store = await makeStore((t) =>
      t
        .replace('MERCHANT_CURRENCY = "USD"', 'MERCHANT_CURRENCY = "US$"')
        .replace('PROFILE_FALLBACK = "strict"', 'PROFILE_FALLBACK = "lenient"')
        .replace('CART_TTL_HOURS = "72"', 'CART_TTL_HOURS = "three days"')
        .replace("rate_limit_period_seconds = 60", "rate_limit_period_seconds = 10")
        .replace('countries = ["CA"]', 'countries = ["Canada"]')
        .replace('name = "ORDER"\nclass_name = "OrderObject"', 'name = "ORDERS"\nclass_name = "OrderObject"'),
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    for (const where of [
      /\[vars\.MERCHANT_CURRENCY\]: expected an ISO 4217/,
      /\[vars\.PROFILE_FALLBACK\]/,
      /\[vars\.CART_TTL_HOURS\]/,
      /\[vars\.SHIPPING\]\.zones\[1\]\.countries\[0\]/,
      /\[ratelimits\]: RATE_LIMIT_ANONYMOUS has period = 60 but \[vars\.TRUST\]\.rate_limit_period_seconds is 10/,
      /\[durable_objects\]: no binding ORDER/,
    ])
      expect(run.stderr).toMatch(where);
  });

  it("names a missing catalog search database, and a placeholder id or no migrations for deploy", async () => {
    const gone = await makeStore((t) => t.replace('binding = "CATALOG_DB"', 'binding = "SEARCH_DB"'));
    const missing = runScript("scripts/check-config.ts", ["--config", gone.config]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/\[d1_databases\]: no binding CATALOG_DB/);
    const placeholder = await makeStore((t) =>
      t
        .replace(
          'database_id = "a0000000-0000-0000-0000-000000000001"',
          'database_id = "00000000-0000-0000-0000-000000000000"',
        )
        .replace('migrations_dir = "migrations/catalog"\n', ""),
    );
    const deploy = runScript("scripts/deploy.ts", ["--config", placeholder.config, "--dry-run"]);
    expect(deploy.status).toBe(1);
    expect(deploy.stderr).toMatch(
      /CATALOG_DB has no real database_id yet; use `wrangler d1 create ucp-worker-catalog`/,
    );
    expect(deploy.stderr).toMatch(/CATALOG_DB needs migrations_dir/);
  });

  it("flags an environment that leaves out keys wrangler does not inherit, or shares store A's files", async () => {
    const store = await makeStore(
      (t) => `${t}\n[env.b]\nname = "b"\n[env.b.vars]\nMERCHANT_ORIGIN = 'https://b.example.com'\n`,
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config, "--env", "b"]);
    expect(run.status).toBe(1);
    for (const where of [
      /\[env\.b\.durable_objects\]: no binding CART/,
      /\[env\.b\.kv_namespaces\]: no binding CATALOG/,
      /\[env\.b\.ratelimits\]: no binding RATE_LIMIT_ANONYMOUS/,
      /\[env\.b\.vars\]: DISCOUNTS is missing/,
      /\[env\.b\.vars\]: TRUST is missing/,
      /\[env\.b\.assets\]: directory is the top-level store's/,
    ])
      expect(run.stderr).toMatch(where);
  });
});

describe("discovery and deploy refuse a bad config", SCRIPT, () => {
  it("npm run discovery writes nothing", async () => {
    const store = await makeStore(PERCENT);
    const run = runScript("scripts/build-discovery.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\[vars\.DISCOUNTS\]\[1\]\.type/);
    expect(run.stderr).toMatch(/discovery not written/);
    expect(existsSync(path.join(store.dir, "public", ".well-known", "ucp"))).toBe(false);
  });

  it("npm run deploy never reaches wrangler deploy", async () => {
    const store = await makeStore(PERCENT);
    const run = runScript("scripts/deploy.ts", ["--config", store.config, "--dry-run"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: \[vars\.DISCOUNTS\]\[1\]\.type/m);
    expect(run.stderr).toMatch(/nothing deployed/);
    // wrangler prints its banner first thing on any deploy; neither it nor our hand-off ran.
    expect(run.output).not.toMatch(/running: wrangler deploy|⛅️ wrangler/);
    expect(existsSync(path.join(store.dir, "public", ".well-known", "ucp"))).toBe(false);
  });
});
