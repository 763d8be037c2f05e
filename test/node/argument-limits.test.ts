/** The per-tier argument limit (src/pipeline/argument-limits.ts) counts UTF-8 bytes of the arguments' JSON exactly. */
import { describe, expect, it } from "vitest";
import { ANONYMOUS, type Principal } from "../../src/auth/authenticate";
import { ARGUMENT_LIMIT_BYTES, argumentsTooLarge } from "../../src/pipeline/argument-limits";

const LIMIT = ARGUMENT_LIMIT_BYTES.anonymous;
/** `{"s":"…"}` is 8 bytes around the string. */
const withBytes = (bytes: number, unit = "a") => ({
  s: unit.repeat((bytes - 8) / new TextEncoder().encode(unit).length),
});
const size = (args: unknown) => new TextEncoder().encode(JSON.stringify(args)).byteLength;

describe("argument limits", () => {
  it("exactly at the limit passes, one byte over is refused with the exact size", () => {
    expect(size(withBytes(LIMIT))).toBe(LIMIT);
    expect(argumentsTooLarge(withBytes(LIMIT), ANONYMOUS)).toBeUndefined();
    const over = argumentsTooLarge(withBytes(LIMIT + 1), ANONYMOUS);
    expect(over?.data).toEqual({ size: LIMIT + 1, limit: LIMIT, tier: "anonymous" });
  });

  it("counts multi-byte characters as their UTF-8 bytes, not as characters", () => {
    // 2-byte characters: fewer characters than the limit in bytes, yet over it.
    const twoByte = withBytes(LIMIT + 2, "é");
    expect(JSON.stringify(twoByte).length).toBeLessThan(LIMIT);
    expect(argumentsTooLarge(twoByte, ANONYMOUS)?.data).toMatchObject({ size: LIMIT + 2 });
    expect(argumentsTooLarge(withBytes(LIMIT, "é"), ANONYMOUS)).toBeUndefined();
    // 3-byte characters right at the limit.
    const threeByte = { s: "€".repeat(Math.floor((LIMIT - 8) / 3)) };
    expect(size(threeByte)).toBeLessThanOrEqual(LIMIT);
    expect(argumentsTooLarge(threeByte, ANONYMOUS)).toBeUndefined();
  });

  it("an authenticated platform has the larger limit", () => {
    const platform: Principal = {
      tier: "authenticated",
      profile: "https://platform.example/profile.json",
      via: "api_key",
      keyId: "key_1",
      signed: [],
    };
    expect(argumentsTooLarge(withBytes(LIMIT + 1), platform)).toBeUndefined();
    expect(argumentsTooLarge(withBytes(ARGUMENT_LIMIT_BYTES.authenticated + 1), platform)?.data).toMatchObject({
      size: ARGUMENT_LIMIT_BYTES.authenticated + 1,
    });
  });
});
