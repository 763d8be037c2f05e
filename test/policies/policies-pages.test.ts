/**
 * The store's policies on the buyer pages: every page's footer links them (escaped; the
 * merchant's own document when given, else /policies/<type>), the checkout shows each with
 * its summary, and a POLICIES the Worker cannot parse stops the store naming the var.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseStorePolicies } from "../../src/config/policies";
import worker from "../../src/index";
import { tool } from "../helpers/checkout";
import { getPage } from "../helpers/pages";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

/** A page under other settings (a fresh env object: the settings parsers cache per env). */
async function pageWith(vars: Record<string, unknown>, path: string): Promise<{ status: number; html: string }> {
  const request = new Request(`https://shop.example.com${path}`, { headers: { "cf-connecting-ip": IP } });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars } as Env);
  return { status: res.status, html: await res.text() };
}

function footer(html: string): string {
  return (html.match(/<footer class="site">[\s\S]*?<\/footer>/) ?? [""])[0];
}

afterEach(() => vi.restoreAllMocks());

describe("policy links on the buyer pages", () => {
  it("every page's footer links the store's policies", async () => {
    for (const path of ["/", "/products/runner-pro", "/no-such-page"]) {
      const { html } = await getPage(path, { ip: IP });
      expect(footer(html), path).toContain(
        '<nav aria-label="Store policies"><ul><li><a href="/policies/returns">Returns</a></li><li><a href="/policies/shipping">Shipping</a></li><li><a href="/policies/privacy">Privacy</a></li><li><a href="/policies/terms">Terms</a></li></ul></nav>',
      );
    }
  });

  it("the checkout shows each policy's summary and link", async () => {
    const started = await tool("create_checkout", {
      checkout: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }] },
    });
    const url = started.body.result.structuredContent.continue_url as string;
    const { res, html } = await getPage(new URL(url).pathname, { ip: IP });
    expect(res.status).toBe(200);
    const section = (html.match(/<section class="card policies"[\s\S]*?<\/section>/) ?? [""])[0];
    expect(section).toContain('<h2 id="h-policies">Store policies</h2>');
    expect(section).toContain(
      '<dt><a href="/policies/returns">Returns</a></dt><dd>Return unworn items within 30 days of delivery for a full refund.</dd>',
    );
  });

  it("/policies/<type> shows the summary; an unknown one is 404", async () => {
    const { res, html } = await getPage("/policies/shipping", { ip: IP });
    expect(res.status).toBe(200);
    expect(html).toContain("<h1>Shipping</h1>");
    expect(html).toContain("Orders ship within 2 business days.");
    expect((await getPage("/policies/refunds", { ip: IP })).res.status).toBe(404);
  });

  it("links the merchant's own document, escapes what the merchant wrote, and shows none when there are none", async () => {
    const policies = JSON.stringify([
      { type: "returns", description: "30 days <b>no</b> questions", url: "https://help.example.com/returns?a=1&b=2" },
      { type: "com.example.policy.price_match", title: "Price <match>", description: "We match." },
    ]);
    const { status, html } = await pageWith({ POLICIES: policies }, "/");
    expect(status).toBe(200);
    expect(footer(html)).toContain(
      '<li><a href="https://help.example.com/returns?a=1&amp;b=2">Returns</a></li><li><a href="/policies/com.example.policy.price_match">Price &lt;match&gt;</a></li>',
    );
    const own = await pageWith({ POLICIES: policies }, "/policies/returns");
    expect(own.html).toContain("<p>30 days &lt;b&gt;no&lt;/b&gt; questions</p>");
    expect(own.html).toContain('<a href="https://help.example.com/returns?a=1&amp;b=2">Read the full policy</a>');
    const none = await pageWith({ POLICIES: "" }, "/");
    expect(footer(none.html)).toBe('<footer class="site">Demo Outfitters</footer>');
  });

  it("a POLICIES the Worker cannot parse closes the store's pages, the log naming the var", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const bad = await pageWith({ POLICIES: [{ type: "returns" }] }, "/");
    expect(bad.status).toBe(503);
    expect(bad.html).toContain("The store is being set up.");
    const line = JSON.parse(
      log.mock.calls.map(([l]) => l as string).find((l) => l.includes("store_misconfigured")) ?? "{}",
    );
    expect(line.problems).toEqual([expect.stringMatching(/^POLICIES\[0\]\.description: /)]);
  });
});

describe("POLICIES problems name the var and the entry", () => {
  const origin = "https://shop.example.com";
  it.each([
    ["not JSON", "{", /^POLICIES: not valid JSON$/],
    ["no description", [{ type: "returns" }], /^POLICIES\[0\]\.description: /],
    ["an unknown short type", [{ type: "refunds", description: "x" }], /^POLICIES\[0\]\.type: expected one of returns/],
    ["a custom type without a title", [{ type: "com.example.policy.x", description: "x" }], /^POLICIES\[0\]\.title: /],
    [
      "two of one type (they would tie)",
      [
        { type: "returns", description: "a" },
        { type: "dev.ucp.shopping.policy.return", title: "Returns", description: "b" },
      ],
      /^POLICIES\[1\]\.type: a second policy of type dev\.ucp\.shopping\.policy\.return/,
    ],
    ["an http url", [{ type: "terms", description: "x", url: "http://example.com/t" }], /^POLICIES\[0\]\.url: /],
    ["an unknown key", [{ type: "terms", description: "x", link: "https://x" }], /^POLICIES\[0\]: /],
  ])("%s", (_name, raw, problem) => {
    const parsed = parseStorePolicies(raw, origin);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]).toMatch(problem);
  });

  it("the store's own types live under its reversed host; an IP address counts as localhost", () => {
    const types = (origin: string) => {
      const parsed = parseStorePolicies([{ type: "privacy", description: "x" }], origin);
      return parsed.ok && parsed.policies[0]?.type;
    };
    expect(types("https://my-shop.example.co.uk")).toBe("uk.co.example.my-shop.policy.privacy");
    expect(types("http://localhost:8787")).toBe("localhost.policy.privacy");
    expect(types("http://127.0.0.1:8787")).toBe("localhost.policy.privacy");
  });
});
