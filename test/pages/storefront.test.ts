/** `/`: search_catalog for the buyer, as cards linking to the product URLs the catalog publishes. */
import { describe, expect, it } from "vitest";
import { tool } from "../helpers/checkout";
import { decodeEntities, getPage } from "../helpers/pages";

// Page budgets are per client address: this file is its own client, as on the internet.
const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

async function search(catalog: Record<string, unknown>): Promise<Json> {
  const reply = await tool("search_catalog", { catalog });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.result.structuredContent;
}

/** The cards' titles and links, in page order. */
function cards(html: string): Array<{ title: string; href: string }> {
  return [...html.matchAll(/<h3><a href="([^"]+)">([^<]*)<\/a><\/h3>/g)].map((m) => ({
    href: decodeEntities(m[1] as string),
    title: decodeEntities(m[2] as string),
  }));
}

describe("storefront", () => {
  it("with no query lists the catalog in search_catalog's order, 24 a page, with the store's name", async () => {
    const { res, html } = await getPage("/", { ip: IP });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    // A first visit gets its CSRF cookie (the layout's rule), even on a cacheable page.
    expect(res.headers.get("set-cookie")).toMatch(/^ucp_csrf=/);
    const expected = await search({ filters: { price: { min: 0 } }, pagination: { limit: 24 } });
    expect(cards(html).map((c) => c.title)).toEqual(expected.products.map((p: Json) => p.title));
    expect(html).toContain(`${expected.pagination.total_count} products`);
    expect(html).toMatch(/<h1>[^<]+<\/h1>/);
  });

  it("search results match search_catalog's, and every card links to the product URL, which opens the product", async () => {
    const { html } = await getPage("/?q=running+shoes", { ip: IP });
    const expected = await search({ query: "running shoes", pagination: { limit: 24 } });
    expect(expected.products.length).toBeGreaterThan(1);
    const shown = cards(html);
    expect(shown).toEqual(expected.products.map((p: Json) => ({ title: p.title, href: p.url })));
    for (const card of shown.slice(0, 3)) {
      expect(card.href).toMatch(/^https:\/\/shop\.example\.com\/products\/[a-z0-9-]+$/);
      const product = await getPage(new URL(card.href).pathname, { ip: IP });
      expect(product.res.status, card.href).toBe(200);
      expect(product.html).toContain(`<h1>${card.title}</h1>`);
    }
  });

  it("pages on with the search cursor: the next page is search_catalog's next page", async () => {
    const first = await getPage("/", { ip: IP });
    const next = /<a class="button" href="([^"]+)" rel="next">/.exec(first.html)?.[1];
    expect(next).toBeDefined();
    const cursor = new URL(decodeEntities(next as string), "https://x").searchParams.get("cursor");
    const second = await getPage(decodeEntities(next as string), { ip: IP });
    expect(second.res.status).toBe(200);
    const expected = await search({ filters: { price: { min: 0 } }, pagination: { limit: 24, cursor } });
    expect(cards(second.html).map((c) => c.title)).toEqual(expected.products.map((p: Json) => p.title));
    expect(second.html).toContain('href="/">First page</a>');
  });

  it("says out of stock in words, and the in-stock filter is search_catalog's available filter", async () => {
    const all = await getPage("/?q=storm+shell", { ip: IP });
    const storm = /<li class="card product-card">[\s\S]*?Storm Shell Rain Jacket[\s\S]*?<\/li>/.exec(all.html)?.[0];
    expect(storm).toContain('<p class="stock out">Out of stock</p>');
    const filtered = await getPage("/?q=storm+shell&available=1", { ip: IP });
    const expected = await search({ query: "storm shell", filters: { available: true }, pagination: { limit: 24 } });
    expect(cards(filtered.html).map((c) => c.title)).toEqual(expected.products.map((p: Json) => p.title));
    expect(filtered.html).toContain('name="available" value="1" checked');
  });

  it("filters by category from the query string", async () => {
    const { html } = await getPage("/?category=Footwear", { ip: IP });
    const expected = await search({ filters: { categories: ["Footwear"] }, pagination: { limit: 24 } });
    expect(expected.products.length).toBeGreaterThan(0);
    expect(cards(html).map((c) => c.title)).toEqual(expected.products.map((p: Json) => p.title));
  });

  it("a search with no match says so; an edited cursor is a 400 page, never a 5xx", async () => {
    const none = await getPage("/?q=zzzqqqxxx", { ip: IP });
    expect(none.res.status).toBe(200);
    expect(none.html).toContain("No products match");
    const bad = await getPage("/?cursor=not-a-cursor", { ip: IP });
    expect(bad.res.status).toBe(400);
    expect(bad.html).toContain('role="alert"');
    expect(bad.html).toContain("cursor");
  });

  it("escapes the query it echoes", async () => {
    const { html } = await getPage(`/?q=${encodeURIComponent('"><script>alert(1)</script>')}`, { ip: IP });
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
