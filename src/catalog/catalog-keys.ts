/**
 * Where a catalog's documents are, given the manifest that serves it: the one place a reader
 * resolves keys, so the switch between catalogs is the manifest pointer alone (and moving
 * search to D1, issue 28, changes this file, not its readers).
 *
 * Two layouts:
 *   - a load from the console (catalog-job.ts) writes its catalog under its own prefix,
 *     `load:<load id>:product:<id>`, `load:<load id>:index:<i>`, `load:<load id>:stock`, while the
 *     old catalog is still served, and the manifest names the prefix (`keys`) last;
 *   - the command-line loader and older loads write the unprefixed keys (kv-layout.ts) and a
 *     manifest without `keys`.
 */
import { type CatalogManifest, KV_KEYS } from "./kv-layout";

export const LOAD_KEY_PREFIX = "load:";
/** Load ids are this long (crypto-random, [0-9a-z]), so key lengths are known in advance. */
export const LOAD_ID_LENGTH = 12;

export interface CatalogKeys {
  /** The prefix every key of this catalog's documents starts with ("" for the unprefixed layout). */
  readonly prefix: string;
  product(id: string): string;
  readonly productPrefix: string;
  /** The one-value index of loads before issue 9 (unprefixed layout only). */
  readonly index: string;
  indexPart(i: number): string;
  readonly stock: string;
  /** Part i of the stock map (manifest `stock_parts`, stock-parts.ts). */
  stockPart(i: number): string;
}

export function loadPrefix(loadId: string): string {
  return `${LOAD_KEY_PREFIX}${loadId}:`;
}

export function keysUnder(prefix: string): CatalogKeys {
  if (prefix === "") return UNPREFIXED;
  return {
    prefix,
    product: (id) => `${prefix}product:${id}`,
    productPrefix: `${prefix}product:`,
    index: `${prefix}index`,
    indexPart: (i) => `${prefix}index:${i}`,
    stock: `${prefix}stock`,
    stockPart: (i) => `${prefix}stock:${i}`,
  };
}

const UNPREFIXED: CatalogKeys = {
  prefix: "",
  product: KV_KEYS.product,
  productPrefix: KV_KEYS.productPrefix,
  index: KV_KEYS.index,
  indexPart: KV_KEYS.indexPart,
  stock: KV_KEYS.stock,
  stockPart: (i) => `${KV_KEYS.stock}:${i}`,
};

/** The keys of the catalog a manifest serves (none: the unprefixed layout). */
export function catalogKeys(manifest: CatalogManifest | undefined | null): CatalogKeys {
  return keysUnder(manifest?.keys ?? "");
}

/** The longest product key prefix any layout uses: ids are checked against it (KV keys hold 512 bytes). */
export const LONGEST_PRODUCT_KEY_PREFIX = `${LOAD_KEY_PREFIX}${"x".repeat(LOAD_ID_LENGTH)}:product:`;
