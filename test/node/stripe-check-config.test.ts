/**
 * `npm run check:config` on a store's Stripe settings, run as a merchant runs it against a
 * temporary wrangler.toml (and .dev.vars, where the secret key lives locally): a secret in
 * [vars] is an error, a live key in test mode is an error, Google Pay PRODUCTION without a
 * merchant id is an error naming where it is, test keys without test mode a warning.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeStore, runScript } from "./store-fixture";

const withVars =
  (lines: string) =>
  (toml: string): string =>
    toml.replace(/^\[vars\]$/m, `[vars]\n${lines}`);

describe("check:config and Stripe", { timeout: 60_000 }, () => {
  it("a secret key or webhook secret written in [vars] is an error naming it, never its value", async () => {
    const store = await makeStore(
      withVars('STRIPE_SECRET_KEY = "sk_test_inTheToml"\nSTRIPE_WEBHOOK_SECRET = "whsec_inTheToml"'),
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: \[vars\.STRIPE_SECRET_KEY\]: a secret, not a var/m);
    expect(run.stderr).toMatch(/^error: \[vars\.STRIPE_WEBHOOK_SECRET\]: a secret, not a var/m);
    expect(run.output).not.toContain("sk_test_inTheToml");
    expect(run.output).not.toContain("whsec_inTheToml");
  });

  it("Google Pay PRODUCTION without a merchant id is named where it is", async () => {
    const store = await makeStore(
      withVars('STRIPE_PUBLISHABLE_KEY = "pk_live_abc"\nGOOGLE_PAY_ENVIRONMENT = "PRODUCTION"'),
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: \[vars\.GOOGLE_PAY_MERCHANT_ID\]: required with GOOGLE_PAY_ENVIRONMENT/m);
  });

  it("a live key in .dev.vars with test mode is an error; test keys without test mode a warning", async () => {
    const store = await makeStore(withVars('STRIPE_PUBLISHABLE_KEY = "pk_live_abc"\nPAYMENT_TEST_MODE = "true"'));
    writeFileSync(path.join(store.dir, ".dev.vars"), 'STRIPE_SECRET_KEY = "sk_live_localSecret"\n');
    const live = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(live.status).toBe(1);
    expect(live.stderr).toMatch(/^error: \[\[vars\] and \.dev\.vars\] STRIPE_SECRET_KEY: a live key \(sk_live_…\)/m);
    expect(live.output).not.toContain("sk_live_localSecret");

    const staging = await makeStore(
      withVars(
        'STRIPE_PUBLISHABLE_KEY = "pk_test_abc"\nSTRIPE_PROFILE_ID = "profile_abc"\nPAYMENT_TEST_MODE = "false"',
      ),
    );
    writeFileSync(path.join(staging.dir, ".dev.vars"), 'STRIPE_SECRET_KEY = "sk_test_localSecret"\n');
    const run = runScript("scripts/check-config.ts", ["--config", staging.config]);
    expect(run.status, run.output).toBe(0);
    expect(run.stderr).toMatch(/^warning: STRIPE_SECRET_KEY: Stripe test keys on a store without PAYMENT_TEST_MODE/m);
  });
});
