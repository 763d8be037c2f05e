import { describe, expect, it } from "vitest";
import { Lru } from "../../../src/lib/lru";

describe("Lru", () => {
  it("never holds more than its bound, evicting the least recently used", () => {
    const lru = new Lru<string, number>(3);
    for (let i = 0; i < 10; i++) lru.set(`k${i}`, i);
    expect(lru.size).toBe(3);
    expect([...lru.entries()].map(([k]) => k)).toEqual(["k7", "k8", "k9"]);
  });

  it("a get makes the entry the most recent; a peek does not", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3); // evicts b, the least recently used
    expect(lru.has("b")).toBe(false);
    expect(lru.peek("a")).toBe(1);
    lru.set("d", 4); // a was only peeked since c: a goes
    expect([...lru.entries()].map(([k]) => k)).toEqual(["c", "d"]);
  });

  it("re-setting a key replaces its value without growing", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    expect(lru.set("a", 2)).toBe(2);
    expect(lru.size).toBe(1);
    expect(lru.get("a")).toBe(2);
  });

  it("keeps falsy values and tells them from a miss", () => {
    const lru = new Lru<string, number | null>(2);
    lru.set("zero", 0);
    lru.set("none", null);
    expect(lru.get("zero")).toBe(0);
    expect(lru.get("none")).toBeNull();
    expect(lru.get("missing")).toBeUndefined();
  });

  it("delete and clear", () => {
    const lru = new Lru<number, string>(4);
    lru.set(1, "x");
    lru.set(2, "y");
    expect(lru.delete(1)).toBe(true);
    expect(lru.size).toBe(1);
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it("refuses a bound that is not a positive integer", () => {
    expect(() => new Lru(0)).toThrow(RangeError);
    expect(() => new Lru(1.5)).toThrow(RangeError);
  });
});
