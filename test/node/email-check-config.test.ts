/**
 * `npm run check:config` on a store's email settings, run as a merchant runs it against a
 * temporary wrangler.toml (and .dev.vars, where `npm start` finds the key): no email is a
 * warning, half of it an error naming what is missing, a bad value an error naming the var.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeStore, runScript } from "./store-fixture";

const withEmail =
  (lines: string) =>
  (toml: string): string =>
    toml.replace(/^\[vars\]$/m, `[vars]\n${lines}`);
const DOMAIN_AND_FROM = 'MAILGUN_DOMAIN = "mg.store-a.example"\nEMAIL_FROM = "Store A <orders@mg.store-a.example>"';

describe("check:config and email", { timeout: 60_000 }, () => {
  it("a store without email passes with one warning saying how to turn it on", async () => {
    const store = await makeStore();
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      "warning: email: not configured — confirmations are logged, not sent (set MAILGUN_API_KEY, MAILGUN_DOMAIN, EMAIL_FROM: docs/email.md)",
    );
  });

  it("domain and From without the key is an error for the local store, passes with it in .dev.vars", async () => {
    const store = await makeStore(withEmail(DOMAIN_AND_FROM));
    const half = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(half.status).toBe(1);
    expect(half.stderr).toMatch(/^error: \[\.dev\.vars\] MAILGUN_API_KEY: not set;/m);
    // A deploy check cannot read secrets; it says so instead.
    const deploy = runScript("scripts/check-config.ts", ["--config", store.config, "--deploy"]);
    expect(deploy.output).toContain("MAILGUN_API_KEY is a secret this check cannot read");
    writeFileSync(path.join(store.dir, ".dev.vars"), 'MAILGUN_API_KEY = "key-local"\n');
    const whole = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(whole.status).toBe(0);
    expect(whole.output).toContain("email: confirmations sent through Mailgun (https://api.mailgun.net");
  });

  it("names a bad From, a bad API base, a domain without From and a key in [vars]", async () => {
    const store = await makeStore(
      withEmail(
        'MAILGUN_DOMAIN = "mg.store-a.example"\nMAILGUN_API_BASE = "api.eu.mailgun.net"\nMAILGUN_API_KEY = "oops"',
      ),
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: \[vars\.MAILGUN_API_KEY\]: a secret, not a var/m);
    expect(run.stderr).toMatch(/^error: \[vars\.EMAIL_FROM\]: not set;/m);
    expect(run.stderr).toMatch(/^error: \[vars\.MAILGUN_API_BASE\]: expected an https origin/m);
    const from = await makeStore(withEmail('MAILGUN_DOMAIN = "mg.store-a.example"\nEMAIL_FROM = "Store A"'));
    const bad = runScript("scripts/check-config.ts", ["--config", from.config]);
    expect(bad.stderr).toMatch(/^error: \[vars\.EMAIL_FROM\]: expected "Store Name <orders@your-domain>"/m);
  });
});
