/**
 * PROFILE_FALLBACK=assume-compatible (local development): a profile on a documentation-only
 * host (platform.example, the README's and the seeds' example) is not fetched, because workerd
 * prints each failed DNS lookup as a stack trace; the fallback says so in one quiet line.
 * Here the outbound fixture server answers every host, so a fetch would show up in its hits.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildConfig } from "../../src/config";
import { BUSINESS_CAPABILITIES } from "../../src/ucp/capabilities";
import { negotiate } from "../../src/ucp/negotiation";
import { clearProfileCache } from "../../src/ucp/profile-fetch";

const local = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com", PROFILE_FALLBACK: "assume-compatible" });
const strict = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com" });

async function hits(url: string): Promise<number> {
  const res = await fetch(`https://fixtures.test/hits?url=${encodeURIComponent(url)}`);
  return (await res.json<{ hits: number }>()).hits;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("PROFILE_FALLBACK=assume-compatible and documentation-only hosts", () => {
  it("does not fetch a platform.example profile and says so once, quietly", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error");
    const warn = vi.spyOn(console, "warn");
    const url = new URL("https://platform.example/profiles/unique-fallback-quiet.json");
    clearProfileCache();
    for (let i = 0; i < 3; i++) {
      const negotiated = await negotiate(url, local, Date.now());
      expect(negotiated.ok && [...negotiated.value.active.keys()].sort()).toEqual(
        Object.keys(BUSINESS_CAPABILITIES).sort(),
      );
    }
    expect(await hits(url.href), "never fetched").toBe(0);
    const lines = log.mock.calls.map((call) => call.join(" ")).filter((line) => line.includes(url.href));
    expect(lines).toEqual([
      `profile ${url.href} unreachable (Platform profile is on a documentation-only host and was not fetched); assuming compatible (PROFILE_FALLBACK)`,
    ]);
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it("covers example.com subdomains and .invalid too, but still fetches .test hosts", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    clearProfileCache();
    for (const href of [
      "https://agents.example.com/profiles/unique-fallback-a.json",
      "https://p.invalid/profiles/unique-fallback-b.json",
    ]) {
      expect((await negotiate(new URL(href), local, Date.now())).ok).toBe(true);
      expect(await hits(href)).toBe(0);
    }
    const test = "https://agent.test/profiles/unique-fallback-c.json";
    expect((await negotiate(new URL(test), local, Date.now())).ok).toBe(true);
    expect(await hits(test)).toBe(1);
  });

  it("a strict store fetches the same host as always", async () => {
    const url = "https://platform.example/profiles/unique-fallback-strict.json";
    clearProfileCache();
    expect((await negotiate(new URL(url), strict, Date.now())).ok).toBe(true);
    expect(await hits(url)).toBe(1);
  });
});
