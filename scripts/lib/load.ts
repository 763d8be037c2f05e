/** Reads, validates and loads one catalog file; shared by `catalog:load` and `npm start`. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseCatalogCsv } from "./catalog-csv";
import { type CatalogProblem, kvEntries, type ValidCatalog, validateCatalog } from "./catalog-file";
import { bulkPut, type KvTarget } from "./kv-writer";

export function readCatalogFile(
  file: string,
  currency: string,
): { catalog?: ValidCatalog; problems: CatalogProblem[] } {
  const text = readFileSync(file, "utf8");
  if (file.toLowerCase().endsWith(".csv")) {
    const { products, errors } = parseCatalogCsv(text);
    const rowProblems = errors.map((e) => ({ where: `row ${e.row}`, message: e.message }));
    const result = validateCatalog({ currency, products }, currency);
    return { ...result, problems: [...rowProblems, ...result.problems] };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { problems: [{ where: "file", message: `not valid JSON: ${(e as Error).message}` }] };
  }
  return validateCatalog(doc, currency);
}

export function catalogVersion(catalog: ValidCatalog): string {
  return createHash("sha256").update(JSON.stringify(catalog)).digest("hex").slice(0, 16);
}

export function loadIntoKv(root: string, catalog: ValidCatalog, target: KvTarget): string {
  const version = catalogVersion(catalog);
  const { data, manifest } = kvEntries(catalog, version, new Date());
  bulkPut(root, data, target);
  // The manifest goes last: a reader that sees the new version finds its documents.
  bulkPut(root, [manifest], target);
  return version;
}
