/**
 * The permalink's parsers (src/permalink/), pure: item tokens (raw or canonical `~`
 * base64url), query partitioning with pointer normalization, `continue_to`'s five steps and
 * what may reach the destination's query.
 */
import { currentSchemas } from "virtual:ucp-material";
import { describe, expect, it } from "vitest";
import { forwardedParams, locationOf, validContinueTo } from "../../src/permalink/destination";
import { decodeItemToken, parseItemPath } from "../../src/permalink/item-path";
import { parsePermalinkQuery, UCP_ROOTS } from "../../src/permalink/query";
import { shoppingState } from "../../src/permalink/shopping-state";

const ORIGIN = "https://shop.example.com";

describe("item tokens", () => {
  it("decodes the specification's example, raw ids, and non-ASCII ids", () => {
    expect(decodeItemToken("~Z2lkOi8vc2hvcGlmeS9Qcm9kdWN0VmFyaWFudC83MDg4MTQxMg")).toEqual({
      ok: true,
      value: "gid://shopify/ProductVariant/70881412",
    });
    expect(decodeItemToken("sku_123.A-b")).toEqual({ ok: true, value: "sku_123.A-b" });
    expect(decodeItemToken(`~${Buffer.from("é/ü").toString("base64url")}`)).toEqual({ ok: true, value: "é/ü" });
  });

  it.each([
    ["~", "empty"],
    ["~Zg=", "padding"],
    ["~Zh", "unused bits set (Zg is canonical for 'f')"],
    ["~Z+8", "standard, not url, alphabet"],
    ["~Z", "a length no encoding has"],
    [`~${Buffer.from([0xff, 0xfe]).toString("base64url")}`, "not UTF-8"],
    [`~${Buffer.from("a\u0085b").toString("base64url")}`, "a C1 control"],
    ["sku:1", "a raw token outside the grammar"],
    ["sku 1", "whitespace"],
  ])("refuses %s (%s)", (token) => {
    expect(decodeItemToken(token).ok).toBe(false);
  });

  it("parses pairs, adds the quantities of one identity, and refuses malformed paths", () => {
    expect(parseItemPath("a:2,~YQ:3,b:1")).toEqual({
      ok: true,
      value: [
        { id: "a", quantity: 5 },
        { id: "b", quantity: 1 },
      ],
    });
    expect(parseItemPath("")).toEqual({ ok: true, value: [] });
    for (const bad of ["a", "a:", "a:0", "a:-1", "a:1.5", "a:01", "a:1,", "a%2Fb:1", "a:999,a:1"])
      expect(parseItemPath(bad).ok, bad).toBe(false);
    expect(parseItemPath(Array.from({ length: 51 }, (_, i) => `s${i}:1`).join(",")).ok).toBe(false);
  });
});

describe("query partitioning", () => {
  it("normalizes pointers, keeps other names as they are, and decodes once (+ stays +)", () => {
    const parsed = parsePermalinkQuery("?buyer/email=a%2Bb%40x.com&//context/postal_code=94105&utm_source=x&x/y=1");
    expect(parsed.ok && parsed.value.fields.map((f) => [f.pointer, f.value])).toEqual([
      ["/buyer/email", "a+b@x.com"],
      ["/context/postal_code", "94105"],
    ]);
    expect(parsed.ok && parsed.value.passThrough).toEqual([
      ["utm_source", "x"],
      ["x/y", "1"],
    ]);
  });

  it("finds collisions whatever the spelling or order, but repeats of a non-UCP name pass", () => {
    for (const q of [
      "buyer/email=a&/buyer/email=b",
      "/buyer/email=a&buyer%2Femail=b",
      "buyer=a&/buyer=b",
      "continue_to=/a&continue_to=/a",
    ])
      expect(parsePermalinkQuery(q), q).toMatchObject({ ok: false, error: { kind: "ambiguous" } });
    expect(parsePermalinkQuery("color=a&color=b").ok).toBe(true);
  });

  it("knows every top-level field of the 2026-08-25 Cart and Checkout as a UCP root", () => {
    const schema = (id: string) => currentSchemas.find((s) => s.$id === `https://ucp.dev/schemas/shopping/${id}.json`);
    const cart = schema("cart");
    const checkout = schema("checkout");
    if (!cart || !checkout) return; // ucp-material.plugin.ts reports the material's absence
    for (const root of [cart, checkout].flatMap((s) => Object.keys(s.properties as object)))
      expect(UCP_ROOTS.has(root), root).toBe(true);
  });
});

describe("shopping state", () => {
  it("applies only fields a cart request takes; the compact path wins over line_items/*", () => {
    const parsed = parsePermalinkQuery(
      "discounts/codes/1=B&discounts/codes/0=A&discounts/codes/01=X&buyer/email=e&buyer/unknown=u&line_items/0/quantity=9&totals/0/amount=1&context/payment/0/handler=h&attribution/ref=r",
    );
    if (!parsed.ok) throw new Error("parsed");
    const state = shoppingState([{ id: "sku", quantity: 2 }], parsed.value.fields);
    expect(state.cart).toEqual({
      line_items: [{ item: { id: "sku" }, quantity: 2 }],
      buyer: { email: "e" },
      discounts: { codes: ["A", "B"] },
      attribution: { ref: "r" },
    });
  });
});

describe("continue_to", () => {
  it.each([
    ["/collections/spring", "/collections/spring"],
    ["/a/./b/../c", "/a/c"],
    ["/a?x=1#top", "/a?x=1#top"],
    ["/é", "/%C3%A9"],
  ])("accepts %s as %s", (value, path) => {
    expect(validContinueTo(value, ORIGIN, "/buy")).toBe(path);
  });

  it.each([
    ["//evil.example"],
    ["///evil.example"],
    ["/\\evil.example"],
    ["https://evil.example"],
    ["javascript:alert(1)"],
    ["/x?u=https://evil.example"],
    ["/a\tb"],
    ["/a\r\nSet-Cookie: x"],
    ["/a\u00a0b"],
    ["relative"],
    [""],
    ["/buy"],
    ["/buy/sku:1"],
    // A leading `//` (or `\\`) that only appears once dot segments are removed, or once %2F / %5C is read.
    ["/.//evil.example/x"],
    ["/a/..//evil.example"],
    ["/%2e//evil.example"],
    ["/%2E%2E//evil.example"],
    ["/a/%2e%2e//evil.example"],
    ["/./././/evil.example"],
    ["/./%2F/evil.example"],
    ["/%2F/evil.example"],
    ["/%2f%2fevil.example"],
    ["/\\\\evil.example"],
    ["/%5C%5Cevil.example"],
    ["/%5c/evil.example"],
    ["/.\t//evil.example"],
    ["/\t/evil.example"],
    ["/.\n//evil.example"],
    ["/./\r\n/evil.example"],
  ])("refuses %j", (value) => {
    expect(validContinueTo(value, ORIGIN, "/buy")).toBeUndefined();
  });

  it("builds Location on the store's origin whatever the path: never a network-path reference", () => {
    expect(locationOf(ORIGIN, "//evil.example/x", [])).toBe("https://shop.example.com//evil.example/x");
    expect(new URL(locationOf(ORIGIN, "//evil.example/x", [["a", "1"]])).host).toBe("shop.example.com");
    expect(locationOf(ORIGIN, "/a#top", [["ref", "x"]])).toBe("https://shop.example.com/a?ref=x#top");
  });
});

describe("what reaches the destination", () => {
  it("passes non-UCP parameters, rewrites chosen attribution, and drops credentials and personal data", () => {
    const params = forwardedParams(
      [
        ["utm_medium", "sms"],
        ["color", "black"],
        ["access_token", "secret"],
        ["session_id", "s"],
        ["promo", "4242 4242 4242 4242"],
        ["friend", "bob@example.com"],
        ["utm_source", "explicit"],
      ],
      new Map([
        ["utm_source", "rewritten"],
        ["utm_campaign", "spring"],
        ["customer", "c_1"],
      ]),
    );
    expect(params).toEqual([
      ["utm_medium", "sms"],
      ["color", "black"],
      ["utm_source", "explicit"],
      ["utm_campaign", "spring"],
    ]);
    expect(locationOf(ORIGIN, "/a?x=1", params)).toBe(
      "https://shop.example.com/a?x=1&utm_medium=sms&color=black&utm_source=explicit&utm_campaign=spring",
    );
  });
});
