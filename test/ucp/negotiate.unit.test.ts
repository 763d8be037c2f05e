import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { BUSINESS_CAPABILITIES } from "../../src/ucp/capabilities";
import { intersectCapabilities, relevantCapabilities } from "../../src/ucp/negotiate";
import { negotiate } from "../../src/ucp/negotiation";
import { parsePlatformProfile } from "../../src/ucp/platform-profile";
import { clearProfileCache, ttlFrom } from "../../src/ucp/profile-fetch";

const V = "2026-04-08";

describe("intersectCapabilities", () => {
  const business = {
    "dev.ucp.shopping.checkout": [{ version: "2026-01-23" }, { version: V }],
    "dev.ucp.shopping.cart": [{ version: V }],
    "dev.ucp.shopping.fulfillment": [{ version: V, extends: "dev.ucp.shopping.checkout" }],
    "dev.ucp.shopping.discount": [{ version: V, extends: ["dev.ucp.shopping.checkout", "dev.ucp.shopping.cart"] }],
    "com.example.gift_wrap": [{ version: V, extends: "dev.ucp.shopping.fulfillment" }],
  };

  it("keeps shared names at the highest mutual version", () => {
    const active = intersectCapabilities(business, {
      "dev.ucp.shopping.checkout": [{ version: "2026-01-23" }, { version: V }],
      "dev.ucp.shopping.cart": [{ version: "2026-01-23" }],
    });
    expect(active.get("dev.ucp.shopping.checkout")?.version).toBe(V);
    expect(active.has("dev.ucp.shopping.cart")).toBe(false);
  });

  it("prunes extensions whose parent is gone, transitively", () => {
    const active = intersectCapabilities(business, {
      "dev.ucp.shopping.fulfillment": [{ version: V }],
      "com.example.gift_wrap": [{ version: V }],
      "dev.ucp.shopping.cart": [{ version: V }],
      "dev.ucp.shopping.discount": [{ version: V }],
    });
    expect([...active.keys()].sort()).toEqual(["dev.ucp.shopping.cart", "dev.ucp.shopping.discount"]);
  });

  it("keeps a multi-parent extension while any parent remains", () => {
    const active = intersectCapabilities(business, {
      "dev.ucp.shopping.checkout": [{ version: V }],
      "dev.ucp.shopping.discount": [{ version: V }],
      "dev.ucp.shopping.fulfillment": [{ version: V }],
      "com.example.gift_wrap": [{ version: V }],
    });
    expect([...active.keys()].sort()).toEqual([
      "com.example.gift_wrap",
      "dev.ucp.shopping.checkout",
      "dev.ucp.shopping.discount",
      "dev.ucp.shopping.fulfillment",
    ]);
  });

  it("lists the root and its active extensions, nothing else, in a response", () => {
    const active = intersectCapabilities(business, business);
    expect(relevantCapabilities(active, "dev.ucp.shopping.cart")).toEqual({
      "dev.ucp.shopping.cart": [{ version: V }],
      "dev.ucp.shopping.discount": [{ version: V }],
    });
    expect(Object.keys(relevantCapabilities(active, "dev.ucp.shopping.checkout")).sort()).toEqual([
      "dev.ucp.shopping.checkout",
      "dev.ucp.shopping.discount",
      "dev.ucp.shopping.fulfillment",
    ]);
    expect(relevantCapabilities(active, "dev.ucp.shopping.order")).toEqual({});
  });
});

describe("parsePlatformProfile", () => {
  it("rejects entries without a dated version; a name it does not know simply matches nothing", () => {
    expect(parsePlatformProfile({ ucp: { version: V, capabilities: { Checkout: [{ version: V }] } } }).ok).toBe(true);
    expect(
      parsePlatformProfile({ ucp: { version: V, capabilities: { "dev.ucp.x": [{ version: "draft" }] } } }).ok,
    ).toBe(false);
    expect(parsePlatformProfile({ ucp: { version: V, capabilities: { "dev.ucp.x": { version: V } } } }).ok).toBe(false);
  });

  it("treats absent capabilities as none", () => {
    const parsed = parsePlatformProfile({ ucp: { version: V, services: {}, payment_handlers: {} } });
    expect(parsed.ok && parsed.value.capabilities).toEqual({});
  });
});

describe("ttlFrom", () => {
  it("honours max-age within a 60 s floor and a 24 h ceiling", () => {
    expect(ttlFrom("public, max-age=300")).toBe(300_000);
    expect(ttlFrom("max-age=5")).toBe(60_000);
    expect(ttlFrom("no-store")).toBe(60_000);
    expect(ttlFrom(null)).toBe(60_000);
    expect(ttlFrom("max-age=99999999")).toBe(86_400_000);
  });
});

describe("negotiate under PROFILE_FALLBACK", () => {
  const strict = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com" });
  const local = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com", PROFILE_FALLBACK: "assume-compatible" });

  it("treats an unreachable profile as fully compatible only when the merchant opted in", async () => {
    const url = new URL("https://agent.test/profiles/unreachable-fallback.json");
    clearProfileCache();
    const relaxed = await negotiate(url, local, Date.now());
    expect(relaxed.ok && [...relaxed.value.active.keys()].sort()).toEqual(Object.keys(BUSINESS_CAPABILITIES).sort());
    clearProfileCache();
    const refused = await negotiate(url, strict, Date.now());
    expect(!refused.ok && refused.error.data?.code).toBe("profile_unreachable");
  });

  it("still refuses malformed profiles and older versions in fallback mode", async () => {
    const malformed = await negotiate(new URL("https://agent.test/profiles/not-json.json"), local, Date.now());
    expect(!malformed.ok && malformed.error.data?.code).toBe("profile_malformed");
    const old = await negotiate(new URL("https://agent.test/profiles/old-version.json"), local, Date.now());
    expect(!old.ok && old.error.data?.code).toBe("version_unsupported");
  });

  it("treats any value but the exact opt-in as strict", () => {
    expect(buildConfig({ PROFILE_FALLBACK: "Assume-Compatible" }).profileFallback).toBe("strict");
    expect(buildConfig({}).profileFallback).toBe("strict");
  });
});
