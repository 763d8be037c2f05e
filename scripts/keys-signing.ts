/**
 * npm run keys:signing -- --kid <kid>     make a P-256 signing key (docs/trust.md)
 * npm run keys:signing -- --retire <kid>  drop an old public key after rotation
 *
 * New keys: the public JWK is added to signing-keys.json (published in discovery's
 * signing_keys, next to the keys still there, so verifiers accept both while you rotate);
 * the private JWK is written to <kid>.private.jwk (git-ignored) for
 * `wrangler secret put MERCHANT_SIGNING_KEY < <kid>.private.jwk`. Then run `npm run discovery`
 * and deploy.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateSigningKeyPair } from "../src/auth/signing-keys";
import { CliError } from "./lib/cli-error";
import { storeArgs } from "./lib/store-args";
import { readWranglerConfig, signingKeysFile } from "./lib/wrangler-config";

const root = path.resolve(import.meta.dirname, "..");
const store = storeArgs(process.argv.slice(2), root);
// `--env b`: store B's own keys (stores/b/signing-keys.json beside its assets folder).
const file = signingKeysFile(readWranglerConfig(store.configPath, store.env)) ?? path.join(root, "signing-keys.json");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

mkdirSync(path.dirname(file), { recursive: true });
const keys = (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []) as Array<{ kid: string }>;
const retire = arg("--retire");
const kid = arg("--kid");
if (retire) {
  const kept = keys.filter((k) => k.kid !== retire);
  if (kept.length === keys.length) throw new CliError(`no key ${retire} in ${path.relative(root, file)}`);
  writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`);
  console.log(`removed ${retire} from ${path.relative(root, file)}; run \`npm run discovery\` and deploy`);
} else if (kid && /^[A-Za-z0-9._-]{1,64}$/.test(kid)) {
  if (keys.some((k) => k.kid === kid)) throw new CliError(`key ${kid} exists already`);
  const { privateJwk, publicJwk } = await generateSigningKeyPair(kid);
  writeFileSync(file, `${JSON.stringify([...keys, publicJwk], null, 2)}\n`);
  const secretFile = path.join(root, `${kid}.private.jwk`);
  writeFileSync(secretFile, JSON.stringify(privateJwk), { mode: 0o600 });
  console.log(`added ${kid} to ${path.relative(root, file)}; private key in ${path.relative(root, secretFile)}`);
  console.log("next:");
  console.log(
    `  npx wrangler secret put MERCHANT_SIGNING_KEY${store.env ? ` --env ${store.env}` : ""} < ${path.relative(root, secretFile)}`,
  );
  console.log(`  npm run deploy${store.env ? ` -- --env ${store.env}` : ""}`);
  console.log(`  then delete ${path.relative(root, secretFile)} (or keep it in your secret store)`);
} else {
  throw new CliError("usage: npm run keys:signing -- --kid <kid>  |  --retire <kid>");
}
