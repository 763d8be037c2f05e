import { describe, expect, it } from "vitest";
import { MAX_SIGNING_KEYS, type PlatformProfile, parsePlatformProfile } from "../../src/ucp/platform-profile";
import { loadPlatformProfile } from "../../src/ucp/profile-fetch";

const V = "2026-04-08";
const EC = {
  kty: "EC",
  crv: "P-256",
  x: "WbbXwVYGdJoP4Xm3qCkGvBRcRvKtEfXDbWvPzpPS8LA",
  y: "sP4jHHxYqC89HBo8TjrtVOAGHfJDflYxw7MFMxuFMPY",
};

/** The platform profile schema's required parts (services, payment_handlers, spec/schema) filled in. */
function parsed(doc: Record<string, unknown>, ucp: Record<string, unknown> = {}): PlatformProfile {
  const base = { version: V, services: {}, payment_handlers: {}, ...ucp };
  const result = parsePlatformProfile({ ucp: { ...base, capabilities: described(ucp.capabilities) }, ...doc });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const DOCS = { spec: "https://ucp.dev/spec", schema: "https://ucp.dev/schema.json" };
function described(capabilities: unknown): unknown {
  if (capabilities === undefined || Array.isArray(capabilities)) return capabilities;
  const entries = Object.entries(capabilities as Record<string, unknown[]>);
  return Object.fromEntries(entries.map(([name, list]) => [name, list.map((e) => ({ ...DOCS, ...(e as object) }))]));
}

describe("signing_keys", () => {
  it("reads JWKs from beside `ucp`, as discovery/profile_schema.json places them", () => {
    const key = { kid: "platform-2026", ...EC, use: "sig", alg: "ES256" };
    expect(parsed({ signing_keys: [key] }).signingKeys).toEqual([key]);
    // not inside `ucp`
    expect(parsed({}, { signing_keys: [key] }).signingKeys).toEqual([]);
  });

  it("skips entries without a string kid and kty, and tolerates a non-array", () => {
    const keys = [
      null,
      "k1",
      [{ kid: "a", kty: "EC" }],
      { kty: "EC" },
      { kid: "no-kty" },
      { kid: 7, kty: "EC" },
      { kid: "ok", kty: "OKP" },
    ];
    expect(parsed({ signing_keys: keys }).signingKeys).toEqual([{ kid: "ok", kty: "OKP" }]);
    expect(parsed({ signing_keys: { kid: "a", kty: "EC" } }).signingKeys).toEqual([]);
    expect(parsed({}).signingKeys).toEqual([]);
  });

  it("keeps only public members, and the first key for a repeated kid", () => {
    const keys = [
      { kid: "k", ...EC, d: "private!", key_ops: ["sign"], ext: true, extra: { deep: 1 }, alg: 256 },
      { kid: "k", kty: "RSA", n: "AQAB", e: "AQAB" },
    ];
    expect(parsed({ signing_keys: keys }).signingKeys).toEqual([{ kid: "k", ...EC }]);
  });

  it(`caps the list at ${MAX_SIGNING_KEYS} keys`, () => {
    const keys = Array.from({ length: 50 }, (_, i) => ({ kid: `k${i}`, kty: "EC" }));
    const out = parsed({ signing_keys: [{ kty: "EC" }, ...keys] }).signingKeys;
    expect(out).toHaveLength(MAX_SIGNING_KEYS);
    expect(out[0]?.kid).toBe("k0");
    expect(out.at(-1)?.kid).toBe(`k${MAX_SIGNING_KEYS - 1}`);
  });
});

describe("order webhook URL", () => {
  const order = (entries: unknown) => parsed({}, { capabilities: { "dev.ucp.shopping.order": entries } });

  it("reads capabilities[order][].config.webhook_url, first string wins, unvalidated", () => {
    expect(order([{ version: V, config: { webhook_url: "https://p.example/hooks" } }]).orderWebhookUrl).toBe(
      "https://p.example/hooks",
    );
    const several = order([
      { version: "2026-01-23" },
      { version: V, config: { webhook_url: 42 } },
      { version: V, config: { webhook_url: "http://127.0.0.1/hook" } },
      { version: V, config: { webhook_url: "https://second.example/" } },
    ]);
    expect(several.orderWebhookUrl).toBe("http://127.0.0.1/hook");
  });

  it("is absent when no entry names one", () => {
    expect(order([{ version: V }, { version: V, config: { webhook: "x" } }])).not.toHaveProperty("orderWebhookUrl");
    // A config that is not an object holds no webhook URL; nothing else of it is acted on.
    expect(order([{ version: V, config: "x" }])).not.toHaveProperty("orderWebhookUrl");
    expect(parsed({})).not.toHaveProperty("orderWebhookUrl");
  });

  it("reads the 2026-01-11 capability array too", () => {
    const profile = parsed(
      {},
      {
        capabilities: [
          { name: "dev.ucp.shopping.checkout", version: V, config: { webhook_url: "https://wrong.example/" } },
          { name: "dev.ucp.shopping.order", version: V, config: { webhook_url: "https://p.example/orders" } },
        ],
      },
    );
    expect(profile.orderWebhookUrl).toBe("https://p.example/orders");
  });
});

it("a fetched profile carries both", async () => {
  const loaded = await loadPlatformProfile(new URL("https://agent.test/profiles/signed.json"), Date.now());
  expect(loaded.ok && loaded.value.signingKeys.map((k) => k.kid)).toEqual(["platform-2026"]);
  expect(loaded.ok && loaded.value.orderWebhookUrl).toBe("https://agent.test/webhooks/orders");
});
