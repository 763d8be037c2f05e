/**
 * Writes one store's /.well-known/ucp into that store's own assets folder, from its checked
 * vars and its own signing-keys.json (see wrangler-config.ts for where those live), so
 * building store B's discovery never touches what store A serves.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildConfig, type MerchantVars } from "../../src/config";
import { discoveryDocument } from "../../src/ucp/discovery";
import { assetsDirectory, signingKeysFile, type WranglerConfig } from "./wrangler-config";

/** Returns the file written and the endpoint it advertises. */
export function writeDiscovery(config: WranglerConfig, root: string): { file: string; endpoint: string } {
  const dir = assetsDirectory(config) as string;
  const keys = JSON.parse(readFileSync(signingKeysFile(config) as string, "utf8")) as JsonWebKey[];
  const merchant = buildConfig(config.vars as MerchantVars);
  const file = path.join(dir, ".well-known", "ucp");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, discoveryDocument(merchant, keys));
  // A new store's folder also needs the headers that serve discovery as public JSON.
  const headers = path.join(dir, "_headers");
  const template = path.join(root, "public", "_headers");
  if (!existsSync(headers) && existsSync(template)) copyFileSync(template, headers);
  return { file, endpoint: merchant.mcpEndpoint };
}
