/**
 * The permalink capability as a profile publishes it: at 2026-08-25 only, with an absolute
 * https `config.endpoint` that permalink.json's business schema accepts, and not at all for a
 * store served over http (the endpoint MUST be https).
 */
import { describe, expect, it } from "vitest";
import { businessCapabilities, businessCapabilitiesAt, PERMALINK } from "../../src/ucp/capabilities";
import { CURRENT_VERSION, LEGACY_VERSION } from "../../src/ucp/versions";
import { currentSchemasPresent, validateCurrent } from "../helpers/official-schema-current";

const BUSINESS = "https://ucp.dev/schemas/shopping/permalink.json#/$defs/dev.ucp.shopping.permalink/business_schema";

describe("dev.ucp.shopping.permalink in the registry", () => {
  it("is published with the store's https endpoint, valid against permalink.json", () => {
    const [entry] = businessCapabilitiesAt(CURRENT_VERSION, "https://shop.example.com")[PERMALINK] ?? [];
    expect(entry).toEqual({
      version: "2026-08-25",
      spec: "https://ucp.dev/2026-08-25/specification/permalink",
      schema: "https://ucp.dev/2026-08-25/schemas/shopping/permalink.json",
      config: { endpoint: "https://shop.example.com/buy" },
    });
    expect(validateCurrent(BUSINESS, entry).errors).toEqual([]);
    // The other entries are the registry's own.
    const { [PERMALINK]: _, ...rest } = businessCapabilitiesAt(CURRENT_VERSION, "https://shop.example.com");
    const { [PERMALINK]: __, ...staticRest } = businessCapabilities(CURRENT_VERSION);
    expect(rest).toEqual(staticRest);
  });

  it("is left out for an http origin and never at 2026-04-08", () => {
    expect(businessCapabilitiesAt(CURRENT_VERSION, "http://localhost:8787")).not.toHaveProperty([PERMALINK]);
    expect(businessCapabilitiesAt(LEGACY_VERSION, "https://shop.example.com")).not.toHaveProperty([PERMALINK]);
    // What the static registry holds is not publishable as it is.
    const relative = { version: "2026-08-25", schema: "x", config: { endpoint: "/buy" } };
    if (currentSchemasPresent) expect(validateCurrent(BUSINESS, relative).valid).toBe(false);
  });
});
