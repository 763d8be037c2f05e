/**
 * The two house rules for object code that biome cannot see (durable-objects/README.md):
 * one ledger helper and one reply type. The ledger rule is read off the sources: every
 * object that keeps a ledger checks it with `priorAnswer` and writes it with one
 * `recordLedger` call, and only shared/idempotency.ts spells the table's SQL. The reply rule
 * is a compile-time check (`npm run typecheck` covers test/): every object answer the tools
 * map is an `ObjectReply`, so `objectReply`'s one exhaustive switch gives each its wire form.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CartObject } from "../../durable-objects/cart-object";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { ChangeReply, OrderObject } from "../../durable-objects/order-object";
import type { ObjectReply } from "../../src/tools/object-reply";
import { ROOT } from "./store-fixture";

const OBJECTS = path.join(ROOT, "durable-objects");

function sources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({ file: f, text: readFileSync(path.join(dir, f), "utf8") }));
}

const calls = (text: string, name: string) => text.split(`${name}(`).length - 1;

describe("one ledger helper", () => {
  // The order's steps live in order/order-book.ts since issue 29, hosted by two objects.
  const objects = sources(OBJECTS).filter(
    (s) => /^[a-z-]+-object\.ts$/.test(s.file) || s.file === path.join("order", "order-book.ts"),
  );

  it("every object with a ledger checks it with priorAnswer and records each answer in one place", () => {
    // An object on the kernel (shared/kernel.ts, issue 27) leaves both to its `mutate`.
    const onKernel = (text: string) => text.includes(".mutate(");
    const keeping = objects.filter((s) => s.text.includes("./shared/idempotency") || onKernel(s.text));
    expect(keeping.map((s) => s.file).sort()).toEqual([
      "cart-object.ts",
      "checkout-object.ts",
      "inventory-object.ts",
      path.join("order", "order-book.ts"),
    ]);
    const kernel = sources(path.join(OBJECTS, "shared")).find((s) => s.file === "kernel.ts");
    for (const { file, text } of [...keeping, ...(kernel ? [kernel] : [])]) {
      const kernelled = file !== "kernel.ts" && onKernel(text);
      expect(calls(text, "checkLedger"), `${file}: check with priorAnswer, not inline`).toBe(0);
      if (kernelled) expect(calls(text, "priorAnswer") + calls(text, "recordLedger"), file).toBe(0);
      else expect(calls(text, "priorAnswer"), file).toBeGreaterThanOrEqual(1);
      if (!kernelled) expect(calls(text, "recordLedger"), `${file}: one place records the answer`).toBe(1);
    }
  });

  it("only shared/idempotency.ts spells the ledger table's SQL", () => {
    const spelled = sources(OBJECTS)
      .filter((s) => /\b(FROM|INTO|UPDATE|TABLE(?: IF NOT EXISTS)?)\s+ledger\b/i.test(s.text))
      .map((s) => s.file);
    expect(spelled).toEqual([path.join("shared", "idempotency.ts")]);
  });
});

/** Compiles only if `T`'s answers are ObjectReply's; returns nothing at run time. */
function answersObjectReply<T extends ObjectReply>(_: (t: T) => void): true {
  return true;
}

describe("one reply type", () => {
  it("cart, checkout and order answers are ObjectReply (order changes add only their issues)", () => {
    type Answer<M extends (...a: never[]) => Promise<unknown>> = Awaited<ReturnType<M>>;
    expect(answersObjectReply<Answer<CartObject["read"]>>(() => {})).toBe(true);
    expect(answersObjectReply<Answer<CartObject["update"]>>(() => {})).toBe(true);
    expect(answersObjectReply<Answer<CheckoutObject["read"]>>(() => {})).toBe(true);
    expect(answersObjectReply<Answer<CheckoutObject["complete"]>>(() => {})).toBe(true);
    expect(answersObjectReply<Answer<OrderObject["read"]>>(() => {})).toBe(true);
    expect(answersObjectReply<Exclude<ChangeReply, { kind: "invalid" }>>(() => {})).toBe(true);
  });
});
