/**
 * Config and deploy that do what they say (issue 26 item 5), run as a merchant runs them:
 * `npm run deploy -- --env b -- --dry-run` dry-runs (the stray `--` no longer hides
 * `--dry-run` from wrangler); check:config reports every problem of a store in one run
 * (settings, email, Stripe) and warns about a fixed-amount discount written in major units.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeStore, ROOT, runScript, storeBRecipe } from "./store-fixture";

const SCRIPT = { timeout: 60_000 };

/** Store B's placeholders that are not KV ids (makeStore fills those) made real. */
const realB = (toml: string) =>
  toml.replace(/"<wrangler r2 bucket create ([a-z0-9-]+)>"/g, (_, name: string) => JSON.stringify(name));

/** A wrangler that records `deploy`'s arguments and fails `secret list` (the tests must not need it). */
function recordingWrangler(): { bin: string; deployed: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-wrangler-"));
  const bin = path.join(dir, "wrangler");
  const deployed = path.join(dir, "deployed");
  writeFileSync(
    bin,
    `#!/usr/bin/env node
const [cmd] = process.argv.slice(2);
if (cmd === "deploy") require("node:fs").writeFileSync(${JSON.stringify(deployed)}, JSON.stringify(process.argv.slice(2)));
else { console.error("secret list must not run for a dry run"); process.exit(1); }
`,
  );
  chmodSync(bin, 0o755);
  return { bin, deployed };
}

function deploy(config: string, bin: string, extra: string[]) {
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
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("npm run deploy and a stray --", SCRIPT, () => {
  it("`-- --env b -- --dry-run` (as npm hands it over: `--env b -- --dry-run`) is a dry run of store B", async () => {
    const store = await makeStore(realB, true);
    const wrangler = recordingWrangler();
    const run = deploy(store.config, wrangler.bin, ["--env", "b", "--", "--dry-run"]);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain("note: ignored a stray `--`");
    expect(run.output).toContain("note: --dry-run, so the store's secrets");
    const args = JSON.parse(readFileSync(wrangler.deployed, "utf8")) as string[];
    expect(args).not.toContain("--");
    expect(args).toContain("--dry-run");
    expect(args.slice(args.indexOf("--env"), args.indexOf("--env") + 2)).toEqual(["--env", "b"]);
  });

  it("flags after the `--` are still the script's own: `-- --env b` picks store B", async () => {
    const store = await makeStore(realB, true);
    const wrangler = recordingWrangler();
    const run = deploy(store.config, wrangler.bin, ["--", "--env", "b", "--dry-run"]);
    expect(run.status, run.output).toBe(0);
    const args = JSON.parse(readFileSync(wrangler.deployed, "utf8")) as string[];
    expect(args).toEqual(["deploy", "--config", store.config, "--env", "b", "--dry-run"]);
    expect(existsSync(path.join(store.dir, "stores/b/public/.well-known/ucp"))).toBe(true);
  });
});

const withVars =
  (lines: string) =>
  (toml: string): string =>
    toml.replace(/^\[vars\]$/m, `[vars]\n${lines}`);

describe("npm run check:config", SCRIPT, () => {
  it("warns about a fixed-amount discount written in major units, and still passes", async () => {
    const store = await makeStore((t) =>
      t
        .replace("value = 500\nmin_subtotal = 2500", "value = 15.00\nmin_subtotal = 25.00")
        .replace('type = "percentage"\nvalue = 10\n', 'type = "percentage"\nvalue = 10.0\n'),
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status, run.output).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: \[vars\.DISCOUNTS\]\[1\]\.value: written with a decimal point, it is read as 15 = 0\.15 USD: amounts are whole minor units of USD; for 15\.00 USD write 1500$/m,
    );
    expect(run.stderr).toMatch(
      /^warning: \[vars\.DISCOUNTS\]\[1\]\.min_subtotal: written with a decimal point, it is read as 25 = 0\.25 USD;?.*write 2500$/m,
    );
    // A percentage is not an amount.
    expect(run.stderr).not.toMatch(/DISCOUNTS\]\[0\]/);
    expect(run.output).toContain("configuration OK");
  });

  it("warns about an amount under one major unit however it is written, in an [env.b] store too", async () => {
    const store = await makeStore(
      (t) =>
        `${realB(t)}\n[[env.b.vars.DISCOUNTS]]\ncode = "TINY"\ntitle = "Tiny"\ntype = "fixed_amount"\nvalue = 15\n`,
      true,
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config, "--env", "b"]);
    expect(run.stderr).toMatch(
      /^warning: \[env\.b\.vars\.DISCOUNTS\]\[1\]\.value: 15 = 0\.15 EUR: amounts are whole minor units of EUR; for 15\.00 EUR write 1500$/m,
    );
    const fine = runScript("scripts/check-config.ts", ["--config", (await makeStore()).config]);
    expect(fine.stderr).not.toMatch(/DISCOUNTS/);
  });

  it("reports every problem in one run: settings, email's secret and Stripe, then one count", async () => {
    const store = await makeStore(
      withVars(
        [
          'MAILGUN_DOMAIN = "mg.store-a.example"',
          'EMAIL_FROM = "Store A <orders@mg.store-a.example>"',
          'STRIPE_PUBLISHABLE_KEY = "pk_live_abc"',
          'PAYMENT_TEST_MODE = "true"',
          'MERCHANT_TIME_ZONE = "Mars/Olympus"',
        ].join("\n"),
      ),
    );
    writeFileSync(path.join(store.dir, ".dev.vars"), 'STRIPE_SECRET_KEY = "sk_live_localSecret"\n');
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    const errors = run.stderr.split("\n").filter((l) => l.startsWith("error: "));
    expect(errors).toEqual([
      'error: [vars.MERCHANT_TIME_ZONE]: expected an IANA time zone such as "Europe/Berlin", got "Mars/Olympus"',
      expect.stringMatching(/^error: \[\.dev\.vars\] MAILGUN_API_KEY: not set;/),
      expect.stringMatching(/^error: \[\[vars\] and \.dev\.vars\] STRIPE_SECRET_KEY: a live key/),
      "error: 3 problems in wrangler.toml; fix them and run again",
    ]);
    expect(run.output).not.toContain("configuration OK");
  });
});

describe("the [env.b] recipe", () => {
  it("names every var the top-level [vars] documents, the optional ones as comments", () => {
    const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
    const vars = toml.slice(toml.indexOf("\n[vars]\n"), toml.indexOf("\n[vars.TRUST]"));
    const names = [...vars.matchAll(/^#? ?([A-Z][A-Z0-9_]+) = /gm)].map((m) => m[1] as string);
    expect(names).toEqual(
      expect.arrayContaining(["MERCHANT_TIME_ZONE", "STRIPE_CAPTURE", "MAILGUN_DOMAIN", "ACCESS_AUD"]),
    );
    const recipe = storeBRecipe();
    // Secrets and the local-only stand-in origin are not vars a second store sets.
    for (const name of names.filter((n) => n !== "STRIPE_API_BASE"))
      expect(recipe, name).toMatch(new RegExp(`^#? ?${name} = `, "m"));
  });
});
