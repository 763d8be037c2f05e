/**
 * Which protocol version an order's webhooks speak. Spec-digest-2026-08-25 §6.9 [Rec]: the
 * version of the receiving platform's profile, the one whose order config gave the webhook
 * URL, with our profile of that version in UCP-Agent. The order keeps that version as data
 * (`webhook_version`, set when the order is made); the stored outbox body is the model's
 * order in that version's envelope, and each attempt writes it through the version's
 * get_order wire, as get_order answers that platform.
 */
import { RawJson } from "../lib/raw-json";
import { CAPABILITY } from "../ucp/capabilities";
import { profilePath } from "../ucp/discovery-paths";
import { CURRENT_VERSION, isSupportedVersion, MODEL_VERSION, type UcpVersion } from "../ucp/versions";
import { type WireContext, wireFor } from "../ucp/wire";

/** The order's webhook version; orders made before it was recorded speak the model's (what they always sent). */
export function webhookVersion(order: { readonly webhook_version?: string }): UcpVersion {
  return isSupportedVersion(order.webhook_version) ? order.webhook_version : MODEL_VERSION;
}

/** The `ucp` envelope of an order sent unasked: the order capability alone (spec-digest §7.5), at `version`. */
export function orderOnlyEnvelope(version: UcpVersion) {
  return { version, status: "success", capabilities: { [CAPABILITY.order]: [{ version }] } } as const;
}

const BODY_VERSION = /^\{"ucp":\{"version":"([^"]{1,20})"/;

/**
 * A stored webhook body as the receiving platform's version writes it, and that version:
 * read from the body's own `ucp.version` (so rows queued before versions existed, whose
 * envelope says 2026-04-08, stay what they were).
 */
export function renderWebhook(body: string, context: WireContext): { body: string; version: UcpVersion } {
  const found = BODY_VERSION.exec(body)?.[1];
  const version = isSupportedVersion(found) ? found : MODEL_VERSION;
  const written = wireFor(version).response("get_order", new RawJson(body), context);
  return { body: written instanceof RawJson ? written.text : JSON.stringify(written), version };
}

/** Our profile of `version`, for UCP-Agent: the root for the current version, its leaf for an older one. */
export function merchantProfileUrl(origin: string, version: UcpVersion = CURRENT_VERSION): string {
  return `${origin}${profilePath(version)}`;
}
