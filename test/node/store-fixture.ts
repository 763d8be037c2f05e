/**
 * A temporary copy of the project's wrangler.toml (top-level store A, plus the documented
 * second-store recipe uncommented as store B when asked), with each store's own public/
 * folder and signing keys, for running the real scripts against.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSigningKeyPair } from "../../src/auth/signing-keys";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const TOML = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");

/** The commented [env.b] recipe at the end of wrangler.toml, uncommented. */
export function storeBRecipe(): string {
  const start = TOML.indexOf("# [env.b]");
  const end = TOML.indexOf("# ---- end of the second store");
  if (start < 0 || end < 0) throw new Error("wrangler.toml no longer holds the [env.b] recipe");
  return TOML.slice(start, end).replace(/^# ?/gm, "");
}

export interface Store {
  readonly dir: string;
  readonly config: string;
}

/**
 * `edit` rewrites the toml text (after main is made absolute); real-looking KV ids replace
 * the placeholders so a deploy check passes unless a test breaks something on purpose.
 */
export async function makeStore(edit: (toml: string) => string = (t) => t, withB = false): Promise<Store> {
  const dir = mkdtempSync(path.join(tmpdir(), "ucp-store-"));
  let toml = TOML.replace('main = "src/index.ts"', `main = ${JSON.stringify(path.join(ROOT, "src/index.ts"))}`)
    // [alias] targets are relative to the config file, which the fixture moves away from the repo.
    .replace(/= "\.\/src\//g, `= "${ROOT}/src/`)
    .replace('MERCHANT_ORIGIN = "http://localhost:8787"', 'MERCHANT_ORIGIN = "https://store-a.example.com"')
    .replace(/id = "0{31}(\d)"/g, `id = "a${"0".repeat(30)}$1"`)
    .replace(
      'database_id = "00000000-0000-0000-0000-000000000000"',
      'database_id = "a0000000-0000-0000-0000-000000000001"',
    );
  if (withB)
    toml += `\n${storeBRecipe()
      .replace('"<wrangler kv namespace create CATALOG --env b>"', '"b00000000000000000000000000000b0"')
      .replace('"<wrangler kv namespace create AUTH --env b>"', '"b00000000000000000000000000000b1"')
      .replace('"<wrangler d1 create ucp-store-b-catalog>"', '"b0000000-0000-0000-0000-0000000000b2"')}`;
  const config = path.join(dir, "wrangler.toml");
  writeFileSync(config, edit(toml));
  mkdirSync(path.join(dir, "public"));
  copyFileSync(path.join(ROOT, "public", "_headers"), path.join(dir, "public", "_headers"));
  await writeKeys(path.join(dir, "signing-keys.json"), "store-a-1");
  if (withB) await writeKeys(path.join(dir, "stores", "b", "signing-keys.json"), "store-b-1");
  return { dir, config };
}

async function writeKeys(file: string, kid: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const { publicJwk } = await generateSigningKeyPair(kid);
  writeFileSync(file, JSON.stringify([publicJwk]));
}

/** Runs an npm script's entry point the way `npm run` does. */
export function runScript(script: string, args: readonly string[]) {
  const run = spawnSync(process.execPath, [path.join(ROOT, "scripts/run.mjs"), path.join(ROOT, script), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, output: run.stdout + run.stderr };
}
