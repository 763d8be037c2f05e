/**
 * The store's business profiles, one per protocol version it speaks, derived from the
 * merchant config and the capability registry, with the merchant's public signing keys
 * (signing-keys.json). The current version's is the root, /.well-known/ucp; each older
 * version's is a leaf the root's `supported_versions` names. scripts/build-discovery.ts
 * writes them all to the store's assets folder; a test checks the committed files are current.
 */
import type { MerchantConfig } from "../config";
import { currentProfile } from "./discovery-current";
import { legacyProfile } from "./discovery-legacy";
import { profilePath } from "./discovery-paths";
import { CURRENT_VERSION, LEGACY_VERSION, SUPPORTED_VERSIONS, type UcpVersion } from "./versions";

export { REST_PATH } from "./discovery-paths";

const PROFILES = {
  [CURRENT_VERSION]: currentProfile,
  [LEGACY_VERSION]: legacyProfile,
} as const;

export function discoveryProfile(
  config: MerchantConfig,
  signingKeys: readonly JsonWebKey[] = [],
  version: UcpVersion = CURRENT_VERSION,
) {
  return PROFILES[version](config, signingKeys);
}

export function discoveryDocument(
  config: MerchantConfig,
  signingKeys: readonly JsonWebKey[] = [],
  version: UcpVersion = CURRENT_VERSION,
): string {
  return `${JSON.stringify(discoveryProfile(config, signingKeys, version), null, 2)}\n`;
}

/** Every profile the store publishes: `file` is relative to its assets folder (the URL path). */
export function discoveryFiles(
  config: MerchantConfig,
  signingKeys: readonly JsonWebKey[],
): Array<{ file: string; body: string }> {
  return SUPPORTED_VERSIONS.map((version) => ({
    file: profilePath(version).slice(1),
    body: discoveryDocument(config, signingKeys, version),
  }));
}
