/**
 * The Embedded Checkout Protocol's bindings (2026-08-25 shopping/checkout/embedded.md
 * §Discovery; 2026-04-08 services/shopping/embedded.openrpc.json): the `embedded` transport
 * the profiles advertise, and the per-checkout binding whose `config.delegate` says ECP is
 * available for that session. Only vocabulary: the page that speaks ECP is src/embedded/.
 */
import type { UcpVersion } from "./versions";

/** Every delegation the checkout page can hand to a host (embedded.md §Delegation). */
export const ECP_DELEGATIONS = [
  "payment.instruments_change",
  "payment.credential",
  "fulfillment.address_change",
  "window.open",
] as const;

export type EcpDelegation = (typeof ECP_DELEGATIONS)[number];

/** The pages have one (light) palette; a host asking for dark gets it ignored (embedded.md §Color Scheme: MAY). */
export const ECP_COLOR_SCHEMES = ["light"] as const;

export function isEcpDelegation(value: string): value is EcpDelegation {
  return (ECP_DELEGATIONS as readonly string[]).includes(value);
}

export function embeddedSchema(version: UcpVersion): string {
  return `https://ucp.dev/${version}/services/shopping/embedded.openrpc.json`;
}

/** The profile's service binding: no endpoint (the session's continue_url is where it loads). */
export function embeddedServiceBinding(version: UcpVersion, spec: string) {
  return {
    version,
    spec,
    transport: "embedded",
    schema: embeddedSchema(version),
    config: { delegate: [...ECP_DELEGATIONS], color_scheme: [...ECP_COLOR_SCHEMES] },
  };
}

/** `ucp.services` of a checkout response when the session may be embedded. */
export function checkoutEmbeddedServices(version: string) {
  return {
    "dev.ucp.shopping": [
      {
        version,
        transport: "embedded",
        config: { delegate: [...ECP_DELEGATIONS], color_scheme: [...ECP_COLOR_SCHEMES] },
      },
    ],
  };
}

/**
 * A checkout's envelope as its owner sees it: the embedded binding stays only when the
 * session's owner authenticated (signature or API key), because only then does the page let
 * that owner's origin frame it (src/embedded/frame-policy.ts). An anonymous owner names any
 * profile it likes, so its sessions hand off by redirect only.
 */
export function embeddingFor<T extends { readonly services?: unknown }>(envelope: T, ownerAuthenticated: boolean): T {
  if (ownerAuthenticated || envelope.services === undefined) return envelope;
  const { services: _dropped, ...rest } = envelope;
  return rest as T;
}
