/** A catalog CSV file read and grouped by the shared reader (src/catalog/csv-catalog.ts). */
import { type CsvCatalog, readCatalogCsv as readRecords } from "../../src/catalog/csv-catalog";
import { readCsvRecords } from "./csv-records";

export { type CsvCatalog, type CsvProblem, type ProductDraft, toProduct } from "../../src/catalog/csv-catalog";

export function readCatalogCsv(file: string, onRows?: (rows: number) => void, every?: number): Promise<CsvCatalog> {
  return readRecords(readCsvRecords(file), onRows, every);
}
