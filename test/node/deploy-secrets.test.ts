/**
 * npm run deploy refuses a store without ID_SIGNING_KEY (issue 10: no public secret). The
 * real deploy script runs against a temporary store with a stand-in wrangler
 * (UCP_WRANGLER_BIN) that answers `secret list` as told and records a deploy.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requiredSecrets, secretNames } from "../../scripts/lib/deploy-secrets";
import { makeStore, ROOT } from "./store-fixture";

const SCRIPT = { timeout: 30_000 };

/** A wrangler that prints `secrets` for `secret list` (or fails when null) and records `deploy`. */
function fakeWrangler(secrets: string[] | null): { bin: string; deployed: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-wrangler-"));
  const bin = path.join(dir, "wrangler");
  const deployed = path.join(dir, "deployed");
  const list = secrets === null ? "null" : JSON.stringify(secrets.map((name) => ({ name, type: "secret_text" })));
  writeFileSync(
    bin,
    `#!/usr/bin/env node
const [cmd, sub] = process.argv.slice(2);
if (cmd === "secret" && sub === "list") {
  if (${list} === null) { console.error("✘ [ERROR] You are not authenticated."); process.exit(1); }
  console.log(JSON.stringify(${list}));
} else if (cmd === "deploy") {
  require("node:fs").writeFileSync(${JSON.stringify(deployed)}, process.argv.slice(2).join(" "));
}
`,
  );
  chmodSync(bin, 0o755);
  return { bin, deployed };
}

function deploy(config: string, bin: string, extra: string[] = []) {
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, "scripts/run.mjs"), path.join(ROOT, "scripts/deploy.ts"), "--config", config, ...extra],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: {
        ...process.env,
        UCP_WRANGLER_BIN: bin,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
      },
    },
  );
  return { status: run.status, output: run.stdout + run.stderr, stderr: run.stderr };
}

describe("npm run deploy and ID_SIGNING_KEY", SCRIPT, () => {
  it("refuses when wrangler secret list does not name ID_SIGNING_KEY: one line, exit 1, no deploy", async () => {
    const store = await makeStore();
    const wrangler = fakeWrangler(["ADMIN_TOKEN"]);
    const run = deploy(store.config, wrangler.bin);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: secret ID_SIGNING_KEY is not set for this store; nothing deployed\. Set it with: npx wrangler secret put ID_SIGNING_KEY/m,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(wrangler.deployed)).toBe(false);
  });

  it("names the environment in the fix for an [env.x] store", async () => {
    const store = await makeStore(undefined, true);
    const run = deploy(store.config, fakeWrangler([]).bin, ["--env", "b"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/wrangler secret put ID_SIGNING_KEY --env b/);
  });

  it("refuses when the secrets cannot be listed, saying why", async () => {
    const store = await makeStore();
    const wrangler = fakeWrangler(null);
    const run = deploy(store.config, wrangler.bin);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/could not list the store's secrets \(wrangler secret list: .*not authenticated/);
    expect(existsSync(wrangler.deployed)).toBe(false);
  });

  it("deploys when the secret is set", async () => {
    const store = await makeStore();
    const wrangler = fakeWrangler(["ID_SIGNING_KEY", "ADMIN_TOKEN"]);
    const run = deploy(store.config, wrangler.bin);
    expect(run.status, run.output).toBe(0);
    expect(existsSync(wrangler.deployed)).toBe(true);
  });

  it("--dry-run skips the check with a note", async () => {
    const store = await makeStore();
    const wrangler = fakeWrangler([]);
    const run = deploy(store.config, wrangler.bin, ["--dry-run"]);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/note: --dry-run, so the store's secrets \(ID_SIGNING_KEY\) were not checked/);
  });
});

describe("a store with Stripe's public settings also needs STRIPE_SECRET_KEY (issue 24)", SCRIPT, () => {
  it("is required once [vars] carry a publishable key, a Stripe profile or Google Pay settings", () => {
    expect(requiredSecrets({})).toEqual(["ID_SIGNING_KEY"]);
    expect(requiredSecrets({ STRIPE_PUBLISHABLE_KEY: "pk_test_x" })).toEqual(["ID_SIGNING_KEY", "STRIPE_SECRET_KEY"]);
    expect(requiredSecrets({ STRIPE_PROFILE_ID: "profile_x" })).toContain("STRIPE_SECRET_KEY");
    expect(requiredSecrets({ GOOGLE_PAY_MERCHANT_NAME: "Shop" })).toContain("STRIPE_SECRET_KEY");
    expect(requiredSecrets({ STRIPE_PUBLISHABLE_KEY: "" })).toEqual(["ID_SIGNING_KEY"]);
  });

  it("npm run deploy refuses such a store without it: discovery would offer handlers no completion can charge", async () => {
    const store = await makeStore((toml) =>
      toml.replace(
        "[vars]\n",
        '[vars]\nSTRIPE_PUBLISHABLE_KEY = "pk_test_51Example"\nSTRIPE_PROFILE_ID = "profile_example"\n',
      ),
    );
    const wrangler = fakeWrangler(["ID_SIGNING_KEY"]);
    const run = deploy(store.config, wrangler.bin);
    expect(run.status, run.output).toBe(1);
    expect(run.stderr).toMatch(/secret STRIPE_SECRET_KEY is not set for this store; nothing deployed/);
    expect(existsSync(wrangler.deployed)).toBe(false);
    const withKey = fakeWrangler(["ID_SIGNING_KEY", "STRIPE_SECRET_KEY"]);
    const ok = deploy(store.config, withKey.bin);
    expect(ok.status, ok.output).toBe(0);
  });
});

describe("secretNames", () => {
  it("reads wrangler's JSON list; anything else is unreadable", () => {
    expect(secretNames('[{"name":"ID_SIGNING_KEY","type":"secret_text"}]')).toEqual(["ID_SIGNING_KEY"]);
    expect(secretNames("[]")).toEqual([]);
    expect(secretNames("not json")).toBeUndefined();
    expect(secretNames('{"name":"x"}')).toBeUndefined();
  });
});
