/**
 * The UCP protocol versions this store speaks. A request's version is the `ucp.version` of
 * the platform profile it references (spec-digest-2026-08-25 §1.2); everything the request
 * gets back follows that version. The model below the pipeline has one shape, the one its
 * first wire version (2026-04-08) already used: that version's wire is the identity, and
 * each newer version is a translation at the edge (src/ucp/wire/).
 */
export const CURRENT_VERSION = "2026-08-25";
export const LEGACY_VERSION = "2026-04-08";

/** Newest first: the root profile's version leads, older ones are leaf profiles. */
export const SUPPORTED_VERSIONS = [CURRENT_VERSION, LEGACY_VERSION] as const;

export type UcpVersion = (typeof SUPPORTED_VERSIONS)[number];

/** The version whose shapes the model, the pages and the stored objects use. */
export const MODEL_VERSION: UcpVersion = LEGACY_VERSION;

export function isSupportedVersion(value: unknown): value is UcpVersion {
  return (SUPPORTED_VERSIONS as readonly unknown[]).includes(value);
}

/** "2026-08-25 and 2026-04-08", for error text. */
export function supportedVersionsText(): string {
  return SUPPORTED_VERSIONS.join(" and ");
}
