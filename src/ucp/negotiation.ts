/**
 * Per-request UCP negotiation: resolve the platform profile, check its protocol version,
 * intersect capabilities. Protocol failures come back as -32001 errors.
 */
import type { MerchantConfig } from "../config";
import { err, ok, type Result } from "../lib/result";
import { BUSINESS_CAPABILITIES, UCP_VERSION } from "./capabilities";
import { discoveryError, type ProtocolError } from "./errors";
import { type ActiveCapabilities, intersectCapabilities } from "./negotiate";
import type { PlatformHandlers, PlatformProfile } from "./platform-profile";
import { documentationHostResult, noteAssumedCompatible } from "./profile-fallback";
import { checkProfileUrl, loadPlatformProfile } from "./profile-fetch";

export interface Negotiated {
  readonly version: string;
  readonly active: ActiveCapabilities;
  readonly profileUrl: string;
  /** The platform's order webhook URL, from its profile (unvalidated: the sender checks it). */
  readonly orderWebhookUrl?: string;
  /** The payment handlers the platform declares (platform-handlers.ts filters ours by them). */
  readonly platformHandlers: PlatformHandlers;
}

/** What an unreachable profile means under PROFILE_FALLBACK=assume-compatible (local dev). */
const ASSUMED_PROFILE: PlatformProfile = {
  version: UCP_VERSION,
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

  if (profile.version !== UCP_VERSION) {
    return err(
      discoveryError(
        "version_unsupported",
        `Protocol version ${profile.version} is not supported. This business supports version ${UCP_VERSION}.`,
        config.origin,
      ),
    );
  }
  const webhook = profile.orderWebhookUrl;
  return ok({
    version: UCP_VERSION,
    active: activeFor(profile),
    profileUrl: url.href,
    platformHandlers: profile.paymentHandlers,
    ...(webhook ? { orderWebhookUrl: webhook } : {}),
  });
}

/** The intersection depends only on the profile, and cached profiles are shared objects. */
const intersections = new WeakMap<PlatformProfile, ActiveCapabilities>();

function activeFor(profile: PlatformProfile): ActiveCapabilities {
  let active = intersections.get(profile);
  if (!active) {
    active = intersectCapabilities(BUSINESS_CAPABILITIES, profile.capabilities);
    intersections.set(profile, active);
  }
  return active;
}
