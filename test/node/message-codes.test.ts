/**
 * Issue 27 item 5: one closed set of business message codes (src/ucp/message-codes.ts). Every
 * code written into a message in src/ and durable-objects/ — an object literal with a message
 * `type`, or the code argument of a message builder — is in the set, and every code in the set
 * is still written somewhere (a code nobody sends is a promise nobody keeps).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MESSAGE_CODES } from "../../src/ucp/message-codes";

const ROOT = path.resolve(import.meta.dirname, "../..");

const files = ["src", "durable-objects"].flatMap((tree) =>
  readdirSync(path.join(ROOT, tree), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith("message-codes.ts"))
    .map((f) => path.posix.join(tree, f.split(path.sep).join("/"))),
);
const texts = new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")]));

/** `export const NAME = "value"` anywhere: a code written through a named constant. */
function constant(name: string): string | undefined {
  for (const text of texts.values()) {
    const found = new RegExp(`export const ${name} = "([a-z0-9_]+)"`).exec(text);
    if (found) return found[1];
  }
  return undefined;
}

/** The object literal around `at`: from its `{` to the matching `}`. */
function enclosing(text: string, at: number): string {
  let depth = 0;
  let start = at;
  for (; start >= 0; start--) {
    if (text[start] === "}") depth++;
    else if (text[start] === "{" && depth-- === 0) break;
  }
  depth = 0;
  let end = at;
  for (; end < text.length; end++) {
    if (text[end] === "{") depth++;
    else if (text[end] === "}" && depth-- === 0) break;
  }
  return text.slice(start, end + 1);
}

interface Written {
  readonly file: string;
  readonly code: string;
}

function written(): { codes: Written[]; unresolved: Written[] } {
  const codes: Written[] = [];
  const unresolved: Written[] = [];
  for (const [file, text] of texts) {
    // A message literal: `type: "error" | "warning" | "info"` and its `code`.
    for (const typed of text.matchAll(/\btype: "(?:error|warning|info)"/g)) {
      const literal = enclosing(text, typed.index);
      const code = /\bcode: (?:"([a-z0-9_]+)"|([A-Za-z_][A-Za-z0-9_]*))/.exec(literal);
      if (!code) continue;
      if (code[1]) codes.push({ file, code: code[1] });
      else if (code[2] && /^[A-Z0-9_]+$/.test(code[2])) {
        const value = constant(code[2]);
        if (value) codes.push({ file, code: value });
        else unresolved.push({ file, code: code[2] });
      } else if (code[2] !== "code") unresolved.push({ file, code: code[2] ?? "" });
    }
    // Builders and the discount rejections (their `type` is added where they become messages).
    for (const call of text.matchAll(
      /\b(?:errorResponse|outcome)\(\s*ctx,\s*"([a-z0-9_]+)"|(?<![.\w])error\("([a-z0-9_]+)"/g,
    ))
      codes.push({ file, code: (call[1] ?? call[2]) as string });
    if (file.endsWith("checkout/discounts.ts"))
      for (const c of text.matchAll(/\bcode: "([a-z0-9_]+)"/g)) codes.push({ file, code: c[1] as string });
  }
  return { codes, unresolved };
}

describe("business message codes", () => {
  const { codes, unresolved } = written();
  const listed: ReadonlySet<string> = new Set(MESSAGE_CODES);

  it("finds the codes it looks for", () => {
    expect(codes.length).toBeGreaterThan(40);
    // A code written through a variable other than a builder's own `code` parameter is not checked here.
    expect(unresolved, JSON.stringify(unresolved)).toEqual([
      // The Embedded Checkout page's own script: the phase name travels as ec.error's code to its host.
      expect.objectContaining({ file: "src/pages/action-surface.ts", code: "phase" }),
    ]);
  });

  it("every code written is in the closed set", () => {
    expect(codes.filter((c) => !listed.has(c.code))).toEqual([]);
  });

  it("every code in the set is written somewhere", () => {
    const seen = new Set(codes.map((c) => c.code));
    expect(MESSAGE_CODES.filter((c) => !seen.has(c))).toEqual([]);
  });

  it("every message builder takes a MessageCode, so the compiler holds its callers to the set", () => {
    const builders: ReadonlyArray<readonly [string, RegExp]> = [
      ["src/tools/checkout.tools.ts", /function errorResponse\(\s*ctx: ToolContext,\s*code: MessageCode,/],
      ["src/tools/order.tools.ts", /function outcome\(ctx: ToolContext, code: MessageCode,/],
      ["src/cart/pricing.ts", /function error\(code: MessageCode,/],
      ["src/checkout/checkout-fulfillment.ts", /function error\(code: MessageCode,/],
      ["src/checkout/discounts.ts", /\): \{ code: MessageCode; content: string \} \| undefined \{/],
    ];
    for (const [file, signature] of builders) expect(texts.get(file), file).toMatch(signature);
  });

  it("has no duplicates", () => {
    expect(listed.size).toBe(MESSAGE_CODES.length);
  });
});
