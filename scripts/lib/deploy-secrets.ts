/**
 * Secrets a deployed store cannot run without. `wrangler deploy` cannot read secret values,
 * but `wrangler secret list` names the ones set, so npm run deploy refuses before deploying
 * when one is missing: without ID_SIGNING_KEY every tool call would answer
 * store_misconfigured (src/config.ts), and there is no safe default to fall back to.
 */
import { spawnSync } from "node:child_process";
import { CliError } from "./cli-error";

export const REQUIRED_SECRETS = ["ID_SIGNING_KEY"] as const;

/**
 * The secrets this store needs: always ID_SIGNING_KEY; and STRIPE_SECRET_KEY once its [vars]
 * carry Stripe's public settings, because discovery then advertises Stripe's handlers and a
 * store without the key would offer them and answer every completion payments_not_configured.
 */
export function requiredSecrets(vars: Readonly<Record<string, unknown>>): string[] {
  const stripe = ["STRIPE_PUBLISHABLE_KEY", "STRIPE_PROFILE_ID", "GOOGLE_PAY_MERCHANT_NAME"].some(
    (name) => typeof vars[name] === "string" && vars[name] !== "",
  );
  return [...REQUIRED_SECRETS, ...(stripe ? ["STRIPE_SECRET_KEY"] : [])];
}

/** The names `wrangler secret list --format json` printed, or why they could not be read. */
export function secretNames(output: string): string[] | undefined {
  try {
    const list = JSON.parse(output) as unknown;
    if (!Array.isArray(list)) return undefined;
    return list.flatMap((s) => (typeof s?.name === "string" ? [s.name as string] : []));
  } catch {
    return undefined;
  }
}

/** Throws a CliError naming each required secret the store (`--env`) lacks. */
export function requireSecrets(
  wrangler: string,
  root: string,
  configPath: string,
  env: string | undefined,
  required: readonly string[] = REQUIRED_SECRETS,
): void {
  const args = ["secret", "list", "--format", "json", "--config", configPath, ...(env ? ["--env", env] : [])];
  const where = env ? ` --env ${env}` : "";
  const run = spawnSync(wrangler, args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  const names = run.status === 0 ? secretNames(run.stdout) : undefined;
  if (!names) {
    const why = (run.stderr || run.stdout || run.error?.message || "").trim().split("\n").slice(-1)[0] ?? "";
    throw new CliError(
      `could not list the store's secrets (wrangler secret list${where}: ${why || `exit ${run.status}`}); nothing deployed`,
    );
  }
  const missing = required.filter((name) => !names.includes(name));
  if (missing.length === 0) return;
  const value =
    missing[0] === "STRIPE_SECRET_KEY"
      ? "your Stripe secret key, sk_test_… or sk_live_…; docs/payments.md, Connect Stripe"
      : "a long random value, e.g. openssl rand -base64 32";
  throw new CliError(
    `secret ${missing.join(", ")} is not set for this store; nothing deployed. Set it with: npx wrangler secret put ${missing[0]}${where} (${value})`,
  );
}
