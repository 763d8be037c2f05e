/**
 * A catalog file (JSON or CSV) as a sequence of not yet validated products, each able to
 * say where a problem in it is: `products[3] (prod_x), variant var_y` in JSON, the file
 * line of the row and its variant id in CSV. The loader walks it twice (validate, then
 * write), so nothing but the parsed file is held.
 */
import { readFileSync, statSync } from "node:fs";
import { readCatalogCsv, toProduct } from "./catalog-csv";
import { type CatalogProblem, jsonProducts, jsonWhere } from "./catalog-file";
import { CliError } from "./cli-error";

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

/** Reads a catalog file; a file that cannot be read at all is a CliError (one line). */
export async function readCatalogSource(
  file: string,
  currency: string,
  progress: (message: string) => void,
): Promise<ReadResult> {
  const kind = checkReadable(file);
  return kind === "csv" ? readCsv(file, progress) : readJson(file, currency);
}

function checkReadable(file: string): "csv" | "json" {
  const lower = file.toLowerCase();
  const kind = lower.endsWith(".csv") ? "csv" : lower.endsWith(".json") ? "json" : undefined;
  if (!kind) throw new CliError(`${file}: expected a .json or .csv catalog file`);
  try {
    if (statSync(file).isDirectory()) throw new CliError(`${file} is a folder, not a catalog file`);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${file}: ${fileError(e)}`);
  }
  return kind;
}

export function fileError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied (the file is not readable)";
  return (e as Error).message;
}

async function readCsv(file: string, progress: (message: string) => void): Promise<ReadResult> {
  let csv: Awaited<ReturnType<typeof readCatalogCsv>>;
  try {
    csv = await readCatalogCsv(file, (rows) => progress(`read ${rows} rows`));
  } catch (e) {
    throw new CliError(`${file}: ${fileError(e)}`);
  }
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

function readJson(file: string, currency: string): ReadResult {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw new CliError(`${file}: ${fileError(e)}`);
    const empty: CatalogSource = { products: 0, items: () => [] };
    return { source: empty, problems: [{ where: "file", message: `not valid JSON: ${e.message}` }] };
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
