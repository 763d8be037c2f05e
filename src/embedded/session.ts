/**
 * An Embedded Checkout (ECP) session as the host opened it: the `ec_*` query parameters on
 * continue_url (2026-08-25 shopping/checkout/embedded.md §Loading an Embedded Checkout URL).
 * Pure: reads a URL, never a cookie, so a framed page (whose cookies a browser withholds)
 * and every page after a form post (which keeps the parameters) read the same session.
 */
import { ECP_DELEGATIONS, type EcpDelegation, isEcpDelegation } from "../ucp/embedded";
import { isSupportedVersion, type UcpVersion } from "../ucp/versions";

export const EC_PARAMS = ["ec_version", "ec_auth", "ec_delegate", "ec_color_scheme"] as const;

export interface EmbeddedSession {
  /** The session's version, or undefined when the host asked for one the store does not speak. */
  readonly version: UcpVersion | undefined;
  /** What the host sent as ec_version (echoed in the error that refuses it). */
  readonly requestedVersion: string;
  /**
   * Accepted delegations: the host's ec_delegate ∩ config.delegate (§Delegation Negotiation).
   * payment.instruments_change only with payment.credential: an instrument the host picks is
   * of no use to the page unless the host also supplies its credential.
   */
  readonly delegate: readonly EcpDelegation[];
  readonly colorScheme: "light" | "dark" | undefined;
}

/** The session the URL opens, or undefined for a plain (not embedded) page load. */
export function embeddedSession(url: URL): EmbeddedSession | undefined {
  const requested = url.searchParams.get("ec_version");
  if (requested === null) return undefined;
  const asked = new Set(
    (url.searchParams.get("ec_delegate") ?? "")
      .split(",")
      .map((d) => d.trim())
      .filter(isEcpDelegation),
  );
  if (!asked.has("payment.credential")) asked.delete("payment.instruments_change");
  const scheme = url.searchParams.get("ec_color_scheme");
  return {
    version: isSupportedVersion(requested) ? requested : undefined,
    requestedVersion: requested.slice(0, 32),
    delegate: ECP_DELEGATIONS.filter((d) => asked.has(d)),
    colorScheme: scheme === "light" || scheme === "dark" ? scheme : undefined,
  };
}

/** The `ec_*` parameters of `from`, carried onto `to` (a redirect after the page's own form post). */
export function withEcParams(to: string, from: URL): string {
  const target = new URL(to, from);
  for (const name of EC_PARAMS) {
    const value = from.searchParams.get(name);
    if (value !== null && !target.searchParams.has(name)) target.searchParams.set(name, value);
  }
  return target.origin === from.origin ? `${target.pathname}${target.search}${target.hash}` : to;
}
