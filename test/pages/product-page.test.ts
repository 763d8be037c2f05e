/** `/products/<handle>`: get_product for the buyer, every variant's price and availability, and "Add to cart". */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { tool } from "../helpers/checkout";
import { type Browser, getPage, locationPath, submit } from "../helpers/pages";
import { seedDemoCatalog } from "../helpers/seed-catalog";
import { ADMIN_TOKEN } from "../order/order-helpers";

// Page budgets are per client address: this file is its own client, as on the internet.
const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

const HOSTILE_TITLE = `<script>alert(1)</script> "Quoted" & 'single' <img src=x onerror=alert(2)>`;

/** The demo catalog plus one product whose title and description are hostile markup. */
function catalogWithHostileProduct() {
  const base = demo.products[0] as Json;
  const hostile = {
    ...base,
    id: "prod_hostile",
    handle: "hostile-product",
    title: HOSTILE_TITLE,
    price_range: { min: base.variants[0].price, max: base.variants[0].price },
    description: { html: `<p>Soft <b>cotton</b>.</p><script>alert(3)</script><style>body{display:none}</style>` },
    variants: base.variants.slice(0, 2).map((v: Json, i: number) => ({
      ...v,
      id: `var_hostile_${i}`,
      sku: `HOSTILE-${i}`,
      title: `"${i}" <b>bold</b>`,
    })),
  };
  return { ...demo, products: [...demo.products, hostile] };
}

describe("product page", () => {
  it("shows get_product's product: title, images, description, options, every variant with price and availability", async () => {
    const { res, html } = await getPage("/products/runner-pro", { ip: IP });
    expect(res.status).toBe(200);
    const reply = await tool("get_product", { catalog: { id: "prod_abc123" } });
    const product = reply.body.result.structuredContent.product;
    expect(html).toContain(`<h1>${product.title}</h1>`);
    expect(html).toContain(`src="${product.media[0].url}"`);
    expect(html).toContain(product.description.plain);
    // One radio group per option; a value is sold out when no variant with it can be bought
    // (Green: 9, 10, 11 all out; 11 still comes in Red).
    expect(html).toContain("<legend>Color</legend>");
    expect(html).toContain("<legend>Size</legend>");
    expect(html).toMatch(/value="Green"> <span>Green<\/span> <span class="muted">\(sold out\)<\/span>/);
    expect(html).toMatch(/value="11"> <span>11<\/span><\/label>/);
    // The first variant that can be bought is chosen, and the status line says so.
    expect(html).toContain('name="opt.0" value="Blue" checked');
    expect(html).toContain('name="opt.1" value="10" checked');
    expect(html).toMatch(/<p id="choice-status"[^>]*>Blue \/ 10 — \$[\d,.]+ — In stock<\/p>/);
    for (const variant of product.variants) {
      const row = new RegExp(
        `<tr data-options="[^"]+" data-available="[01]"><th scope="row">${variant.title}</th><td class="num">\\$[\\d,.]+</td><td>([^<]+)</td></tr>`,
      ).exec(html);
      expect(row?.[1], variant.id).toBe(variant.availability.available === false ? "Out of stock" : "In stock");
    }
    expect(html).toContain('<form class="card" method="post" action="/cart">');
    expect(html).toMatch(/<input type="hidden" name="_csrf" value="[A-Za-z0-9_-]+">/);
    expect(html).toContain("$120.00 – $150.00");
    // The form holds this browser's CSRF token and a one-use idempotency key: never cached.
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("shows live availability: a variant the merchant sells out reads Out of stock and cannot be chosen", async () => {
    const variant = "var_abc123_blue_8";
    const row = /<tr[^>]*><th scope="row">Blue \/ Size 8<\/th><td class="num">[^<]+<\/td><td>([^<]+)<\/td><\/tr>/;
    const before = await getPage("/products/runner-pro", { ip: IP });
    expect(row.exec(before.html)?.[1]).toBe("In stock");
    const setStock = (units: number) =>
      exports.default.fetch(`https://shop.example.com/admin/inventory/${variant}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ set: units }),
      });
    expect((await setStock(0)).status).toBe(200);
    try {
      // The catalog's availability overlay is re-read every 2 s.
      let html = "";
      for (let waited = 0; waited <= 5_000; waited += 250) {
        html = (await getPage("/products/runner-pro", { ip: IP })).html;
        if (row.exec(html)?.[1] !== "In stock") break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(row.exec(html)?.[1]).toBe("Out of stock");
      expect(html).toMatch(/<tr data-options="\[&quot;Blue&quot;,&quot;8&quot;\]" data-available="0">/);
    } finally {
      expect((await setStock(20)).status).toBe(200);
    }
  });

  it("get_product takes the handle the product URL names; an unknown handle is an HTML 404", async () => {
    const reply = await tool("get_product", { catalog: { id: "runner-pro" } });
    expect(reply.body.result.structuredContent.product.id).toBe("prod_abc123");
    const missing = await getPage("/products/no-such-product", { ip: IP });
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(missing.html).toContain("Page not found");
    // The page is the handle's: a product id is not a second address for it.
    expect((await getPage("/products/prod_abc123", { ip: IP })).res.status).toBe(404);
  });

  it("a product title containing <script> and quotes renders as text, and so do its description and variants", async () => {
    await seedDemoCatalog(catalogWithHostileProduct());
    try {
      const { res, html } = await getPage("/products/hostile-product", { ip: IP });
      expect(res.status).toBe(200);
      const escaped =
        "&lt;script&gt;alert(1)&lt;/script&gt; &quot;Quoted&quot; &amp; &#39;single&#39; &lt;img src=x onerror=alert(2)&gt;";
      expect(html).toContain(`<h1>${escaped}</h1>`);
      expect(html).toContain(`<title>${escaped} · `);
      expect(html).not.toContain("<script>alert");
      expect(html).not.toContain("<img src=x");
      expect(html).not.toContain("alert(3)");
      expect(html).not.toContain("body{display:none}");
      expect(html).toContain("<p>Soft cotton.</p>");
      expect(html).toContain("&quot;0&quot; &lt;b&gt;bold&lt;/b&gt;");
      // The one script is the pickers' own (nonce'd); nothing from the catalog runs.
      expect(html.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/^<script nonce="[^"]+">$/)]);
      // The storefront card escapes it too.
      const search = await getPage("/?q=quoted", { ip: IP });
      expect(search.html).toContain(`>${escaped}</a></h3>`);
      expect(search.html).not.toContain("<script>alert");
    } finally {
      await seedDemoCatalog();
    }
  });

  describe("option pickers without JavaScript: the server picks the variant from the values", () => {
    async function pick(values: Record<string, string>) {
      const browser: Browser = { ip: IP };
      const { html } = await getPage("/products/runner-pro", browser);
      const form = (html.match(/<form class="card" method="post" action="\/cart">[\s\S]*?<\/form>/) ?? [])[0] as string;
      const res = await submit("/cart", form, { ...values, quantity: "2" }, browser);
      return { res, browser };
    }

    it("a combination that exists and is in stock goes into the cart", async () => {
      const { res, browser } = await pick({ "opt.0": "Red", "opt.1": "9" });
      expect(res.status).toBe(303);
      const cart = await getPage(locationPath(res), browser);
      expect(cart.html).toContain("Red / 9");
      // The header now counts what the cookie's cart holds.
      expect(cart.html).toMatch(/aria-label="Cart, 2 items">Cart <span class="count" aria-hidden="true">2<\/span>/);
    });

    it("a combination no variant has says so, keeping what was chosen", async () => {
      const { res } = await pick({ "opt.0": "Blue", "opt.1": "11" });
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html).toContain("Blue / 11 is not available. Choose another combination.");
      expect(html).toContain('name="opt.0" value="Blue" checked');
      expect(html).toContain('name="opt.1" value="11" checked');
    });

    it("a sold-out combination says so; a missing value asks for every option", async () => {
      const soldOut = await pick({ "opt.0": "Green", "opt.1": "9" });
      expect(soldOut.res.status).toBe(409);
      expect(await soldOut.res.text()).toContain("Green / 9 is sold out.");
      const partial = await pick({ "opt.0": "Green" });
      expect(partial.res.status).toBe(422);
      expect(await partial.res.text()).toContain("Choose a value for every option.");
    });
  });
});
