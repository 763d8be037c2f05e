import { describe, expect, it } from "vitest";
import {
  MAX_HEADER_CHARS,
  parseByteSequences,
  parseSignatureInput,
  serializeByteSequence,
  serializeInnerList,
} from "../../../src/auth/structured-fields";

describe("parseSignatureInput", () => {
  it("parses an inner list of components with parameters, keeping parameter order", () => {
    const parsed = parseSignatureInput(
      'sig1=("@method" "@authority" "content-digest");created=1738617601;keyid="k1";alg="ecdsa-p256-sha256"',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const entry = parsed.value.get("sig1");
    expect(entry?.components).toEqual(["@method", "@authority", "content-digest"]);
    expect(Object.entries(entry?.params ?? {})).toEqual([
      ["created", 1738617601],
      ["keyid", "k1"],
      ["alg", "ecdsa-p256-sha256"],
    ]);
  });

  it("accepts several members, extra spaces and boolean parameters", () => {
    const parsed = parseSignatureInput('a=( "@method"  "@path" );x;y=?0 ,\tb=();keyid="k\\"2"');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect([...parsed.value.keys()]).toEqual(["a", "b"]);
    expect(parsed.value.get("a")?.params).toEqual({ x: true, y: false });
    expect(parsed.value.get("b")).toEqual({ components: [], params: { keyid: 'k"2' } });
  });

  it("round-trips through serializeInnerList", () => {
    const header = '("@method" "x-a\\\\b");created=1;keyid="k\\"1";flag;off=?0';
    const parsed = parseSignatureInput(`sig1=${header}`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const entry = parsed.value.get("sig1");
    expect(entry && serializeInnerList(entry.components, entry.params)).toBe(header);
  });

  it.each([
    ["an item instead of an inner list", 'sig1="@method"'],
    ["an unterminated list", 'sig1=("@method"'],
    ["an unterminated string", 'sig1=("@method)'],
    ["a token component", "sig1=(method)"],
    ["a component parameter", 'sig1=("content-type";sf)'],
    ["a bad escape", 'sig1=("a\\n")'],
    ["a decimal parameter", "sig1=();created=1.5"],
    ["a token parameter", "sig1=();keyid=abc"],
    ["an uppercase key", 'Sig1=("@method")'],
    ["a duplicate label", "sig1=(), sig1=()"],
    ["a duplicate parameter", 'sig1=();keyid="a";keyid="b"'],
    ["a trailing comma", "sig1=(),"],
    ["missing separator", 'sig1=("a""b")'],
    ["an over-long integer", "sig1=();created=1234567890123456"],
    ["a non-ASCII string", 'sig1=("é")'],
  ])("rejects %s", (_why, header) => {
    expect(parseSignatureInput(header).ok).toBe(false);
  });

  it("caps the number of components and the header length", () => {
    const many = Array.from({ length: 33 }, (_, i) => `"h${i}"`).join(" ");
    expect(parseSignatureInput(`sig1=(${many})`).ok).toBe(false);
    const fine = Array.from({ length: 32 }, (_, i) => `"h${i}"`).join(" ");
    expect(parseSignatureInput(`sig1=(${fine})`).ok).toBe(true);
    expect(parseSignatureInput(`sig1=();keyid="${"a".repeat(MAX_HEADER_CHARS)}"`).ok).toBe(false);
  });

  it("keeps error messages short whatever the input", () => {
    const parsed = parseSignatureInput(`${"a".repeat(5000)}=(), ${"a".repeat(5000)}=()`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.length).toBeLessThan(120);
  });
});

describe("parseByteSequences", () => {
  it("parses byte sequences and ignores their parameters", () => {
    const parsed = parseByteSequences("sig1=:AQID:;x=1, sig2=:BAU=:");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect([...(parsed.value.get("sig1") ?? [])]).toEqual([1, 2, 3]);
    expect([...(parsed.value.get("sig2") ?? [])]).toEqual([4, 5]);
  });

  it.each(["sig1=:AQ!D:", "sig1=:AQID", 'sig1="AQID"', "sig1=(:AQID:)", "sig1=:A:", "sig1"])("rejects %s", (header) => {
    expect(parseByteSequences(header).ok).toBe(false);
  });

  it("serializes with standard padded base64", () => {
    expect(serializeByteSequence(new Uint8Array([0xfb, 0xff]))).toBe(":+/8=:");
  });
});

describe("garbage never throws", () => {
  // A small deterministic PRNG keeps the fuzz cases reproducible.
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const alphabet = 'sig1=():;"\\ ,?-*@abcAZ09+/=\t\u00e9\u0000';
  const randomHeader = (n: number) =>
    Array.from({ length: n }, () => alphabet.charAt(Math.floor(rand() * alphabet.length))).join("");

  it("handles random, huge and unbalanced inputs with a failure value", () => {
    const inputs = [
      ...Array.from({ length: 500 }, () => randomHeader(Math.floor(rand() * 80))),
      "(".repeat(8000),
      '"'.repeat(8000),
      `sig1=(${" ".repeat(7000)}`,
      `sig1=()${" ".repeat(7000)}x`,
      `sig1=:${"A".repeat(8100)}:`,
      "x".repeat(1_000_000),
      `sig1=${";a".repeat(4000)}`,
    ];
    for (const input of inputs) {
      expect(() => parseSignatureInput(input)).not.toThrow();
      expect(() => parseByteSequences(input)).not.toThrow();
    }
  });
});
