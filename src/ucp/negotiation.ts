/**
 * Per-request UCP negotiation: resolve the platform profile, check its protocol version,
 * intersect capabilities. Protocol failures come back as -32001 errors.
 */
import type { MerchantConfig } from "../config";
import { err, ok, type Result } from "../lib/result";
import { BUSINESS_CAPABILITIES, businessCapabilities } from "./capabilities";
import { discoveryError, type ProtocolError } from "./errors";
import { type ActiveCapabilities, intersectCapabilities } from "./negotiate";
import type { PlatformHandlers, PlatformProfile } from "./platform-profile";
import { documentationHostResult, noteAssumedCompatible } from "./profile-fallback";
import { checkProfileUrl, loadPlatformProfile } from "./profile-fetch";
import { isSupportedVersion, MODEL_VERSION, supportedVersionsText, type UcpVersion } from "./versions";

export interface Negotiated {
  /** The platform profile's version: negotiation, validation and every answer follow it. */
  readonly version: UcpVersion;
  readonly active: ActiveCapabilities;
  readonly profileUrl: string;
  /** The platform's order webhook URL, from its profile (unvalidated: the sender checks it). */
  readonly orderWebhookUrl?: string;
  /** The payment handlers the platform declares (platform-handlers.ts filters ours by them). */
  readonly platformHandlers: PlatformHandlers;
}

/**
 * What an unreachable profile means under PROFILE_FALLBACK=assume-compatible (local dev): a
 * 2026-04-08 platform that supports everything, as it always meant, so local tools written
 * against that version keep working. A profile that is fetched decides its own version.
 */
const ASSUMED_PROFILE: PlatformProfile = {
  version: MODEL_VERSION,
  capabilities: BUSINESS_CAPABILITIES,
  signingKeys: [],
  paymentHandlers: {},
};

/** Checks the profile URL's form before anything else costs a fetch. */
export function profileUrl(value: unknown, config: MerchantConfig): Result<URL, ProtocolError> {
  const url = checkProfileUrl(value, config.outboundAllow);
  return url.ok ? url : err(discoveryError(url.error.code, url.error.content, config.origin));
}

export async function negotiate(
  url: URL,
  config: MerchantConfig,
  now: number,
): Promise<Result<Negotiated, ProtocolError>> {
  const fallback = config.profileFallback === "assume-compatible";
  const loaded =
    (fallback && documentationHostResult(url)) ||
    (await loadPlatformProfile(url, now, { timeoutMs: config.profileFetchTimeoutMs }));
  let profile: PlatformProfile;
  if (loaded.ok) profile = loaded.value;
  else if (loaded.error.code === "profile_unreachable" && fallback) {
    noteAssumedCompatible(url, loaded.error.content);
    profile = ASSUMED_PROFILE;
  } else return err(discoveryError(loaded.error.code, loaded.error.content, config.origin));

  const version = profile.version;
  if (!isSupportedVersion(version)) {
    return err(
      discoveryError(
        "version_unsupported",
        `Protocol version ${version} is not supported. This business supports versions ${supportedVersionsText()}.`,
        config.origin,
      ),
    );
  }
  const webhook = profile.orderWebhookUrl;
  return ok({
    version,
    active: activeFor(profile, version),
    profileUrl: url.href,
    platformHandlers: profile.paymentHandlers,
    ...(webhook ? { orderWebhookUrl: webhook } : {}),
  });
}

/** The intersection depends only on the profile, and cached profiles are shared objects. */
const intersections = new WeakMap<PlatformProfile, ActiveCapabilities>();

/**
 * Against our registry of the profile's own version only, by exact version equality: a
 * 2026-08-25 profile listing 2026-04-08 entries meets nothing (overview §Capability Versions:
 * no intersecting across profiles).
 */
function activeFor(profile: PlatformProfile, version: UcpVersion): ActiveCapabilities {
  let active = intersections.get(profile);
  if (!active) {
    active = intersectCapabilities(businessCapabilities(version), profile.capabilities);
    intersections.set(profile, active);
  }
  return active;
}
