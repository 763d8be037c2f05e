/**
 * The console's catalog list, a page at a time: from a D1 catalog's tables (catalog-browse-d1.ts)
 * with only the page's documents, so the console's isolate never loads the KV index (issue 28);
 * from the KV index for a catalog loaded before issue 28 (catalog-browse.ts).
 */
import type { Product } from "../../schemas/ucp/product";
import { type BrowsePage, browseCatalog } from "./catalog-browse";
import { browseCatalogD1 } from "./catalog-browse-d1";
import { catalogSnapshot, getProducts } from "./kv-catalog";
import type { CatalogManifest } from "./kv-layout";
import { forgetServedManifest, productsOf, servedManifest } from "./search-served";

export interface CatalogListPage extends BrowsePage {
  readonly manifest: CatalogManifest;
  /** The page's product documents by id. */
  readonly products: ReadonlyMap<string, Product>;
  /** Products in the catalog. */
  readonly size: number;
}

export async function catalogListPage(
  env: Pick<Env, "CATALOG" | "CATALOG_DB">,
  now: number,
  query: string,
  page: number,
  perPage: number,
): Promise<CatalogListPage | null> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await servedManifest(env.CATALOG, now);
    const key = manifest?.search;
    if (!manifest || !key) break;
    try {
      const found = await browseCatalogD1(env.CATALOG_DB, key, manifest.products, query, page, perPage);
      const products = await productsOf(
        env.CATALOG,
        manifest,
        found.docs.map((d) => d.id),
      );
      return { ...found, manifest, products, size: manifest.products };
    } catch (e) {
      // Tables collected under this isolate's cached manifest: a newer one names others.
      if (attempt > 0 || !/no such table/.test(String(e))) throw e;
      forgetServedManifest();
    }
  }
  const snapshot = await catalogSnapshot(env.CATALOG, now);
  if (!snapshot) return null;
  const found = browseCatalog(snapshot.index, query, page, perPage);
  const products = await getProducts(
    env.CATALOG,
    found.docs.map((d) => d.id),
  );
  return { ...found, manifest: snapshot.manifest, products, size: snapshot.index.docs.length };
}
