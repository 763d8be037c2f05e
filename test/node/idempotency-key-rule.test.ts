/**
 * Issue 27 item 5: one idempotency-key rule. Its form lives in src/lib/idempotency-key-rule.ts
 * only; a second spelling of the key's character class or length anywhere in the served code
 * is a second rule (there were two: 128 on the wire, 255 in the admin API and console).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_KEY_MAX, isIdempotencyKey } from "../../src/lib/idempotency-key-rule";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HOME = "src/lib/idempotency-key-rule.ts";

function sources(): string[] {
  return ["src", "durable-objects", "schemas"].flatMap((tree) =>
    readdirSync(path.join(ROOT, tree), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.posix.join(tree, f.split(path.sep).join("/"))),
  );
}

describe("the idempotency-key rule", () => {
  it("takes 1 to 128 visible ASCII characters and nothing else", () => {
    expect(isIdempotencyKey("a")).toBe(true);
    expect(isIdempotencyKey("k".repeat(IDEMPOTENCY_KEY_MAX))).toBe(true);
    for (const bad of ["", "k".repeat(IDEMPOTENCY_KEY_MAX + 1), "has space", "ünïcode", "\ud800", 7, undefined])
      expect(isIdempotencyKey(bad), String(bad)).toBe(false);
  });

  it("is spelled in one module", () => {
    const elsewhere = sources()
      .filter((f) => f !== HOME)
      .filter((f) => {
        const text = readFileSync(path.join(ROOT, f), "utf8");
        // The key's character class as a regex, or a length bound written next to an idempotency key.
        return text.includes("\\x21-\\x7e") || /idempotency[\s\S]{0,80}\b(?:255|1,255)\b/i.test(text);
      });
    expect(elsewhere).toEqual([]);
  });
});
