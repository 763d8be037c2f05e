/**
 * A catalog file (JSON or CSV) read into a catalog source (src/catalog/catalog-source.ts):
 * what the file system can get wrong is a CliError (one line); what is wrong inside the file
 * is a problem, named the same way the console's upload names it.
 */
import { readFileSync, statSync } from "node:fs";
import { csvSource, jsonSource, type ReadResult } from "../../src/catalog/catalog-source";
import { readCatalogCsv } from "./catalog-csv";
import { CliError } from "./cli-error";

export type { CatalogSource, ReadResult, SourceItem } from "../../src/catalog/catalog-source";

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
  try {
    return csvSource(await readCatalogCsv(file, (rows) => progress(`read ${rows} rows`)));
  } catch (e) {
    throw new CliError(`${file}: ${fileError(e)}`);
  }
}

function readJson(file: string, currency: string): ReadResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(`${file}: ${fileError(e)}`);
  }
  return jsonSource(text, currency);
}
