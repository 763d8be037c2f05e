/**
 * Every merchant setting of one store (the top level of wrangler.toml, or one `[env.x]`),
 * checked with the parsers the Worker itself runs, each problem named with where it is:
 * `[env.b.vars.DISCOUNTS][1].type: ...`. Used by check:config, discovery and deploy.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { importVerifyKey } from "../../src/auth/signing-keys";
import { trustConfigProblems } from "../../src/auth/trust-config";
import { parseCommerceConfig } from "../../src/checkout/commerce-config";
import { emailVarProblems } from "../../src/config/email";
import { STRIPE_SECRETS } from "../../src/config/stripe";
import { merchantVarProblems } from "../../src/merchant-vars";
import { assetsDirectory, signingKeysFile, type WranglerConfig } from "./wrangler-config";

/** What src/index.ts and the Env type need bound; wrangler.toml's top level binds them all. */
const DURABLE_OBJECTS = {
  CART: "CartObject",
  INVENTORY: "InventoryObject",
  CHECKOUT: "CheckoutObject",
  ORDER: "OrderObject",
  ORDER_INDEX: "OrderIndexObject",
  CONSOLE_SESSION: "ConsoleSessionObject",
  CATALOG_LOAD: "CatalogLoadObject",
};
const KV_NAMESPACES = ["CATALOG", "AUTH"];
/** The console's catalog uploads (docs/console-catalog.md). */
const R2_BUCKETS = ["CATALOG_UPLOADS"];
/** Catalog search (issue 28; docs/search.md): one D1 database per store, its schema in migrations_dir. */
const D1_DATABASES = ["CATALOG_DB"];
const D1_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PLACEHOLDER_D1_ID = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;
const RATE_LIMITS = ["RATE_LIMIT_ANONYMOUS", "RATE_LIMIT_AUTHENTICATED"];
const PLACEHOLDER_KV_ID = /^0{31}[0-9]$/;
const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/;

export interface CheckOptions {
  /** The environment checked; undefined = the top-level store. */
  readonly env?: string;
  /** The top-level store, to find keys an environment forgot to repeat (wrangler does not inherit them). */
  readonly topLevel?: WranglerConfig;
  /** Deploying: the origin must be public https and the KV ids real. */
  readonly deploying: boolean;
}

export async function checkStoreConfig(config: WranglerConfig, options: CheckOptions): Promise<string[]> {
  const { env, topLevel, deploying } = options;
  const at = (key: string) => (env ? `[env.${env}.${key}]` : `[${key}]`);
  const problems: string[] = [];
  const vars = config.vars as Record<string, unknown>;

  // The Worker's own parsers; their problems start with the var's name (`DISCOUNTS[1].type: ...`).
  const located = (p: string) => p.replace(/^([A-Z][A-Z0-9_]*)/, (name) => at(`vars.${name}`));
  problems.push(...merchantVarProblems(vars).map(located));
  const commerce = parseCommerceConfig(vars);
  if (!commerce.ok) problems.push(...commerce.problems.map(located));
  problems.push(...trustConfigProblems(vars.TRUST).map(located));
  // Email's secret is not in [vars]; check:config looks for it where it can (docs/email.md).
  problems.push(...emailVarProblems(vars).map(located));
  // Stripe's secrets in [vars] would be published with the config (and read by anyone with the repository).
  for (const name of STRIPE_SECRETS)
    if (vars[name] !== undefined)
      problems.push(
        `${at(`vars.${name}`)}: a secret, not a var: remove it from wrangler.toml and run \`npx wrangler secret put ${name}${env ? ` --env ${env}` : ""}\` (.dev.vars for local runs)`,
      );

  const origin = typeof vars.MERCHANT_ORIGIN === "string" ? vars.MERCHANT_ORIGIN : undefined;
  if (deploying && (origin === undefined || !origin.startsWith("https://") || LOOPBACK.test(origin)))
    problems.push(
      `${at("vars.MERCHANT_ORIGIN")}: a deployed store needs its public https origin, got ${origin ?? "nothing"}`,
    );

  for (const [name, className] of Object.entries(DURABLE_OBJECTS)) {
    const binding = config.durable_objects.bindings.find((b) => b.name === name);
    if (!binding)
      problems.push(`${at("durable_objects")}: no binding ${name} (class_name = "${className}")${inherit(env)}`);
    else if (binding.class_name !== className)
      problems.push(
        `${at("durable_objects")}: ${name} must bind class_name "${className}", got "${binding.class_name}"`,
      );
    const migrated = config.migrations.some((m) =>
      [...(m.new_sqlite_classes ?? []), ...(m.new_classes ?? [])].includes(className),
    );
    if (!migrated) problems.push(`[[migrations]]: no migration creates ${className} (new_sqlite_classes)`);
  }
  for (const name of KV_NAMESPACES) {
    const kv = config.kv_namespaces.find((k) => k.binding === name);
    if (!kv) problems.push(`${at("kv_namespaces")}: no binding ${name}${inherit(env)}`);
    else if (deploying && PLACEHOLDER_KV_ID.test(kv.id ?? ""))
      problems.push(
        `${at("kv_namespaces")}: ${name} still has the placeholder id; use \`wrangler kv namespace create ${name}\``,
      );
    const shared = topLevel?.kv_namespaces.find((k) => k.binding === name);
    if (env && kv && shared && kv.id === shared.id)
      problems.push(
        `${at("kv_namespaces")}: ${name} uses the top-level store's namespace ${kv.id}; each store needs its own`,
      );
  }

  for (const name of R2_BUCKETS) {
    const bucket = config.r2_buckets.find((b) => b.binding === name);
    if (!bucket) problems.push(`${at("r2_buckets")}: no binding ${name}${inherit(env)}`);
    const shared = topLevel?.r2_buckets.find((b) => b.binding === name);
    if (env && bucket && shared && bucket.bucket_name === shared.bucket_name)
      problems.push(
        `${at("r2_buckets")}: ${name} uses the top-level store's bucket ${bucket.bucket_name}; each store needs its own`,
      );
  }

  for (const name of D1_DATABASES) {
    const db = config.d1_databases.find((d) => d.binding === name);
    if (!db) problems.push(`${at("d1_databases")}: no binding ${name}${inherit(env)}`);
    else {
      const id = db.database_id ?? "";
      if (deploying && (!D1_ID.test(id) || PLACEHOLDER_D1_ID.test(id)))
        problems.push(
          `${at("d1_databases")}: ${name} has no real database_id yet; use \`wrangler d1 create ${db.database_name ?? "<name>"}\``,
        );
      if (!db.migrations_dir)
        problems.push(`${at("d1_databases")}: ${name} needs migrations_dir = "migrations/catalog" (its schema)`);
    }
    const shared = topLevel?.d1_databases.find((d) => d.binding === name);
    if (env && db && shared && db.database_id === shared.database_id)
      problems.push(
        `${at("d1_databases")}: ${name} uses the top-level store's database ${db.database_id}; each store needs its own`,
      );
  }

  const trust =
    trustConfigProblems(vars.TRUST).length === 0
      ? (vars.TRUST as { rate_limit_period_seconds?: number } | undefined)
      : undefined;
  const period = (typeof trust === "object" && trust?.rate_limit_period_seconds) || 60;
  for (const name of RATE_LIMITS) {
    const limit = config.ratelimits.find((r) => r.name === name);
    if (!limit) problems.push(`${at("ratelimits")}: no binding ${name}${inherit(env)}`);
    else if (limit.simple.period !== period)
      problems.push(
        `${at("ratelimits")}: ${name} has period = ${limit.simple.period} but ${at("vars.TRUST")}.rate_limit_period_seconds is ${period}; they must match (retry_after states it)`,
      );
  }

  // Keys the top level sets and the environment does not: wrangler will deploy without them.
  if (env && topLevel) {
    for (const name of Object.keys(topLevel.vars))
      if (!(name in vars)) problems.push(`${at("vars")}: ${name} is missing${inherit(env)}`);
  }

  problems.push(...(await storeFileProblems(config, { env, topLevel, deploying, origin })));
  return problems;
}

async function storeFileProblems(
  config: WranglerConfig,
  o: CheckOptions & { origin: string | undefined },
): Promise<string[]> {
  const at = (key: string) => (o.env ? `[env.${o.env}.${key}]` : `[${key}]`);
  const dir = assetsDirectory(config);
  if (dir === undefined) return [`${at("assets")}: no directory; discovery (/.well-known/ucp) is served from it`];
  const problems: string[] = [];
  if (o.env && o.topLevel && assetsDirectory(o.topLevel) === dir)
    problems.push(
      `${at("assets")}: directory is the top-level store's (${path.basename(dir)}); give this store its own, e.g. "stores/${o.env}/public", so its discovery never replaces the other's`,
    );
  const file = signingKeysFile(config) as string;
  const name = path.relative(process.cwd(), file) || file;
  if (!existsSync(file))
    return [...problems, `${name}: missing (\`npm run keys:signing -- --kid <kid>${o.env ? ` --env ${o.env}` : ""}\`)`];
  let keys: unknown;
  try {
    keys = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return [...problems, `${name}: not valid JSON`];
  }
  if (!Array.isArray(keys)) return [...problems, `${name}: expected a JSON array of public JWKs`];
  for (const [i, key] of keys.entries()) {
    const kid = (key as { kid?: unknown })?.kid;
    if (typeof key !== "object" || key === null || "d" in key)
      problems.push(`${name}[${i}]: a private key; publish only the public half`);
    else if (typeof kid !== "string" || kid === "") problems.push(`${name}[${i}]: no kid`);
    else if (!(await importVerifyKey(key as JsonWebKey)).ok)
      problems.push(`${name}[${i}] (${kid}): not a usable EC public key`);
    // The demo key's private half is in this repository's .dev.vars.
    else if (kid === "demo-dev-only" && (o.deploying || o.origin?.startsWith("https://")))
      problems.push(
        `${name}: still holds the demo key; \`npm run keys:signing -- --kid <kid>\` then \`--retire demo-dev-only\``,
      );
  }
  return problems;
}

function inherit(env: string | undefined): string {
  return env ? " (not inherited from the top level: repeat it here)" : "";
}
