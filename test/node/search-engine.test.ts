import { describe, expect, it } from "vitest";
import { generateCatalog } from "../../bench/generate-catalog";
import { hydrate, searchIndex } from "../../src/catalog/search-engine";
import { buildSearchIndex, type IndexableProduct } from "../../src/catalog/search-index";

const { products } = generateCatalog(3000, 7) as { products: IndexableProduct[] };
const index = hydrate(buildSearchIndex(products));
const words = [...new Set(products.slice(0, 200).flatMap((p) => p.title.toLowerCase().split(/\s+/)))].slice(0, 40);

describe("searchIndex", () => {
  it("orders only the hits asked for, the same as the full ranking's prefix, with an exact total", () => {
    for (let i = 0; i < words.length - 1; i++) {
      const query = `${words[i]} ${words[i + 1]}`;
      const all = searchIndex(index, query, {}, Number.MAX_SAFE_INTEGER);
      expect(all.hits).toHaveLength(all.total);
      for (const want of [1, 10, 37]) {
        const page = searchIndex(index, query, {}, want);
        expect(page.total).toBe(all.total);
        expect(page.hits).toEqual(all.hits.slice(0, want));
      }
    }
  });

  it("gives the same answer on the no-filter fast path as through a filter that excludes nothing", () => {
    for (const query of words.slice(0, 10)) {
      expect(searchIndex(index, query, {}, 50)).toEqual(searchIndex(index, query, { minPrice: 0 }, 50));
    }
    expect(searchIndex(index, undefined, {}, 25)).toEqual(searchIndex(index, undefined, { minPrice: 0 }, 25));
  });

  it("leaves no score behind between searches (the scratch buffer is reused)", () => {
    const first = searchIndex(index, words[0], {}, 20);
    searchIndex(index, words[1], {}, 20);
    expect(searchIndex(index, words[0], {}, 20)).toEqual(first);
  });
});
