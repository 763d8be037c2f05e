/**
 * `POST /admin/catalog/upload`: a JSON or CSV catalog file from the browser, checked by the
 * very code `npm run catalog:load` runs (src/catalog/: every bad row named by file line and
 * variant id, nothing written unless the whole file is valid), then written in the loader's
 * KV layout and order, stale keys deleted. Writing happens in this request: a catalog whose
 * writes would pass one invocation's KV budget is refused before anything is written, and
 * the page points at `catalog:load --remote` (docs/console-catalog.md).
 */
import { keysToWrite, validateSource, writeCatalog } from "../../catalog/catalog-load";
import { csvSource, jsonSource, type ReadResult } from "../../catalog/catalog-source";
import { readCatalogCsv } from "../../catalog/csv-catalog";
import { readCsvRecords } from "../../catalog/csv-records";
import { resetCatalogCache } from "../../catalog/kv-catalog";
import { seeOther } from "../../pages/respond";
import { catalogProblemsPage, catalogTooLarge } from "./catalog-page";
import { budgetedStore, KV_OPERATION_BUDGET } from "./catalog-store";
import { readConsoleForm } from "./forms";
import { consoleMessage } from "./layout";
import type { ConsoleContext } from "./types";

/** The largest file the form takes: well past what fits in one invocation's KV budget. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Room for the index parts, stock map, manifest and the lists of stale keys. */
const PRODUCT_KEY_BUDGET = KV_OPERATION_BUDGET - 30;

export async function uploadCatalog(ctx: ConsoleContext): Promise<Response> {
  const length = Number(ctx.request.headers.get("content-length") ?? Number.NaN);
  if (!Number.isFinite(length)) {
    return consoleMessage(ctx, 411, "Length required", "Send the catalog from the upload form.");
  }
  if (length > MAX_UPLOAD_BYTES)
    return catalogTooLarge(ctx, `The file is ${mib(length)}; the upload takes up to ${mib(MAX_UPLOAD_BYTES)}.`);
  const form = await readConsoleForm(ctx);
  if (!form)
    return consoleMessage(
      ctx,
      403,
      "Refused",
      "The form expired or came from elsewhere. Reload the page and try again.",
    );
  const file = form.get("catalog");
  if (!(file instanceof File) || file.size === 0) {
    return catalogProblemsPage(ctx, 422, [{ where: "file", message: "choose a .csv or .json catalog file" }]);
  }
  const kind = kindOf(file.name);
  if (!kind) {
    return catalogProblemsPage(ctx, 422, [{ where: file.name, message: "expected a .json or .csv catalog file" }]);
  }
  const currency = ctx.config.currency;
  const read: ReadResult =
    kind === "csv"
      ? csvSource(await readCatalogCsv(readCsvRecords(textOf(file))))
      : jsonSource(await file.text(), currency);
  const catalog = validateSource(read, currency, () => {});
  if (catalog.problems.length > 0) return catalogProblemsPage(ctx, 422, catalog.problems, file.name);
  if (keysToWrite(catalog) > PRODUCT_KEY_BUDGET) {
    return catalogTooLarge(
      ctx,
      `${file.name} is valid but holds ${catalog.products} products; an upload writes at most ${PRODUCT_KEY_BUDGET - 3} in one go.`,
    );
  }
  const { store, leftOver } = budgetedStore(ctx.env.CATALOG);
  const { removed } = await writeCatalog(catalog, store, currency, () => {}, { now: new Date(ctx.now), batch: 100 });
  // This isolate serves the new catalog at once; others pick it up at their next manifest check.
  resetCatalogCache();
  console.log(
    JSON.stringify({ event: "catalog_uploaded", products: catalog.products, version: catalog.version, removed }),
  );
  const query = new URLSearchParams({ loaded: String(catalog.products), removed: String(removed) });
  if (leftOver() > 0) query.set("left", String(leftOver()));
  return seeOther(`/admin/catalog?${query}`);
}

function kindOf(name: string): "csv" | "json" | undefined {
  const lower = name.toLowerCase();
  return lower.endsWith(".csv") ? "csv" : lower.endsWith(".json") ? "json" : undefined;
}

/** The file as decoded text chunks, streamed: a CSV is never held whole as one string. */
async function* textOf(file: File): AsyncGenerator<string> {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
