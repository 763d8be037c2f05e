/**
 * The checkout as ECP messages carry it: the page's get_checkout payload (the model's shape)
 * written in the session's version (src/ucp/wire/), with that version in `ucp` (embedded.md:
 * "The ucp.version in all responses MUST echo the ec_version") and the embedded binding the
 * session runs under.
 */
import type { MerchantConfig } from "../config";
import { RawJson } from "../lib/raw-json";
import type { ToolPayload } from "../pages/buyer-tools";
import { checkoutEmbeddedServices } from "../ucp/embedded";
import type { UcpVersion } from "../ucp/versions";
import { wireFor } from "../ucp/wire";

export function ecCheckout(payload: ToolPayload, version: UcpVersion, config: MerchantConfig): Record<string, unknown> {
  const written = wireFor(version).response("get_checkout", payload, { config });
  const checkout = (written instanceof RawJson ? JSON.parse(written.text) : { ...written }) as Record<string, unknown>;
  const ucp = (typeof checkout.ucp === "object" && checkout.ucp !== null ? checkout.ucp : {}) as Record<
    string,
    unknown
  >;
  const capabilities = Object.fromEntries(
    Object.entries((ucp.capabilities ?? {}) as Record<string, Array<Record<string, unknown>>>).map(([name, list]) => [
      name,
      list.map((entry) => ({ ...entry, version })),
    ]),
  );
  return { ...checkout, ucp: { ...ucp, version, services: checkoutEmbeddedServices(version), capabilities } };
}

/** JSON for a `<script type="application/json">` element: nothing in it can end the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
