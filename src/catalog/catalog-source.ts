/**
 * A catalog (a grouped CSV or a JSON document) as a sequence of not yet validated products,
 * each able to say where a problem in it is: `products[3] (prod_x), variant var_y` in JSON,
 * the file line of the row and its variant id in CSV. A load walks it twice (validate, then
 * write), so nothing but the parsed file is held. Shared by the command-line loader and the
 * console's upload.
 */
import { type CsvCatalog, toProduct } from "./csv-catalog";
import { type CatalogProblem, jsonProducts, jsonWhere } from "./merchant-catalog";

export interface SourceItem {
  readonly raw: unknown;
  /** Names a problem in this product, or in its variant at that index. */
  where(variant?: number): string;
}

export interface CatalogSource {
  readonly products: number;
  items(): Iterable<SourceItem>;
}

export interface ReadResult {
  readonly source: CatalogSource;
  /** Problems found while reading (CSV rows, the JSON document); more come from validation. */
  readonly problems: CatalogProblem[];
}

export function csvSource(csv: CsvCatalog): ReadResult {
  const problems = csv.problems.map((p) => ({
    where: `line ${p.line}${p.variant ? ` (${p.variant})` : ""}`,
    message: p.message,
  }));
  const drafts = csv.drafts;
  return {
    problems,
    source: {
      products: drafts.size,
      *items() {
        for (const draft of drafts.values()) {
          yield {
            raw: toProduct(draft),
            where: (variant?: number) => {
              const row = variant === undefined ? undefined : draft.variants[variant];
              return row ? `line ${row.line} (${row.variantId})` : `line ${draft.line} (product ${draft.id})`;
            },
          };
        }
      },
    },
  };
}

/** A JSON catalog's text; text that is not JSON is one problem, not an exception. */
export function jsonSource(text: string, currency: string): ReadResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const empty: CatalogSource = { products: 0, items: () => [] };
    return { source: empty, problems: [{ where: "file", message: `not valid JSON: ${(e as Error).message}` }] };
  }
  const { products = [], problems } = jsonProducts(doc, currency);
  return {
    problems,
    source: {
      products: products.length,
      *items() {
        for (const [i, raw] of products.entries()) yield { raw, where: (v?: number) => jsonWhere(raw, i, v) };
      },
    },
  };
}
