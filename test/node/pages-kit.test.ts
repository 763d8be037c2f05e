/** The buyer pages' building blocks: escaping, URLs from data, prices, contrast, CSRF tokens. */
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { csrfOk, csrfState } from "../../src/pages/csrf";
import { escapeHtml, html, safeUrl, trustedHtml } from "../../src/pages/html";
import { formatMoney } from "../../src/pages/money";
import { accentCss } from "../../src/pages/styles";

describe("html templates", () => {
  it("escapes every interpolated value, in text and in attributes", () => {
    const title = `<script>alert("x")</script> & 'quotes'`;
    const out = html`<h1 title="${title}">${title}</h1>`.value;
    expect(out).toBe(
      '<h1 title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</h1>',
    );
    expect(out).not.toContain("<script>");
  });

  it("nests safe fragments unescaped, joins arrays, and renders false/null/undefined as nothing", () => {
    const items = ["a<b", "c"].map((x) => html`<li>${x}</li>`);
    const out = html`<ul>${items}</ul>${false}${null}${undefined}${0}${trustedHtml("<hr>")}`.value;
    expect(out).toBe("<ul><li>a&lt;b</li><li>c</li></ul>0<hr>");
    expect(escapeHtml(`"'<>&`)).toBe("&quot;&#39;&lt;&gt;&amp;");
  });

  it("safeUrl keeps http(s) and same-origin paths, drops scripts, data and protocol-relative URLs", () => {
    expect(safeUrl("https://cdn.example.com/a.png")).toBe("https://cdn.example.com/a.png");
    expect(safeUrl("/products/tee")).toBe("/products/tee");
    for (const bad of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "//evil.example/x", 42, ""])
      expect(safeUrl(bad)).toBeUndefined();
  });
});

describe("prices", () => {
  it("formats integer minor units in the store's currency and locale", () => {
    expect(formatMoney(1999, "USD", "en-US")).toBe("$19.99");
    expect(formatMoney(1999, "JPY", "ja-JP")).toBe("￥1,999");
    expect(formatMoney(123456, "EUR", "de-DE")).toBe("1.234,56\u00a0€");
    expect(formatMoney(1234, "KWD", "en-US")).toBe("KWD 1.234");
  });
});

describe("accent colour", () => {
  it("puts white text on dark accents and black on pale ones; pale accents do not colour links", () => {
    expect(accentCss("#1d4ed8")).toContain("--on-accent:#fff");
    expect(accentCss("#1d4ed8")).toContain("--accent-text:#1d4ed8");
    expect(accentCss("#ffeb3b")).toContain("--on-accent:#000");
    expect(accentCss("#fe3")).toContain("--accent-text:#1a1a1a");
  });
});

describe("CSRF", () => {
  const config = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com", ID_SIGNING_KEY: "k".repeat(32) });
  const form = (token?: string) => {
    const f = new FormData();
    if (token !== undefined) f.set("_csrf", token);
    return f;
  };
  const post = (headers: Record<string, string>) =>
    new Request("https://shop.example.com/cart", { method: "POST", headers });

  it("a browser without the cookie gets one (HttpOnly, SameSite=Lax, Secure on https); its token then verifies", async () => {
    const first = await csrfState(new Request("https://shop.example.com/"), config);
    expect(first.setCookie).toMatch(
      /^ucp_csrf=[A-Za-z0-9_-]{24}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/,
    );
    const cookie = (first.setCookie as string).split(";")[0] as string;
    const again = await csrfState(new Request("https://shop.example.com/", { headers: { cookie } }), config);
    expect(again.setCookie).toBeUndefined();
    expect(again.token).toBe(first.token);
    expect(await csrfOk(post({ cookie, origin: "https://shop.example.com" }), form(first.token), config)).toBe(true);
  });

  it("refuses a missing or wrong token, another browser's cookie, and other origins", async () => {
    const a = await csrfState(new Request("https://shop.example.com/"), config);
    const b = await csrfState(new Request("https://shop.example.com/"), config);
    const cookieA = (a.setCookie as string).split(";")[0] as string;
    expect(await csrfOk(post({ cookie: cookieA }), form(), config)).toBe(false);
    expect(await csrfOk(post({ cookie: cookieA }), form(b.token), config)).toBe(false);
    expect(await csrfOk(post({}), form(a.token), config)).toBe(false);
    expect(await csrfOk(post({ cookie: cookieA, origin: "https://evil.example" }), form(a.token), config)).toBe(false);
    expect(await csrfOk(post({ cookie: cookieA, "sec-fetch-site": "cross-site" }), form(a.token), config)).toBe(false);
    const otherStore = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com", ID_SIGNING_KEY: "j".repeat(32) });
    expect(await csrfOk(post({ cookie: cookieA }), form(a.token), otherStore)).toBe(false);
  });
});
