import { describe, expect, it } from "vitest";
import { RawJson, stringifyWithRaw } from "../../src/lib/raw-json";

describe("stringifyWithRaw", () => {
  it("splices raw JSON verbatim, wherever it sits, and leaves other values as JSON.stringify would", () => {
    const raw = '{"b":1,"a":[1,2,{"x":"y"}]}';
    const value = { id: 7, result: { structuredContent: new RawJson(raw), content: [{ type: "text", text: raw }] } };
    const text = stringifyWithRaw(value);
    expect(JSON.parse(text)).toEqual({
      id: 7,
      result: { structuredContent: JSON.parse(raw), content: [{ type: "text", text: raw }] },
    });
    expect(text).toContain(`"structuredContent":${raw}`);
    expect(stringifyWithRaw(new RawJson(raw))).toBe(raw);
    expect(stringifyWithRaw([new RawJson("1"), new RawJson("2")])).toBe("[1,2]");
  });

  it("is exactly JSON.stringify when there is nothing raw, even for strings that look like markers", () => {
    const value = { a: "\u0000raw:x:0", b: ['"quoted"', "\\\\"], c: null };
    expect(stringifyWithRaw(value)).toBe(JSON.stringify(value));
    const mixed = { a: "\u0000raw:x:0", b: new RawJson("true") };
    expect(JSON.parse(stringifyWithRaw(mixed))).toEqual({ a: "\u0000raw:x:0", b: true });
  });
});
