/**
 * A CSV file as records with the file line each starts on: the file streamed into the
 * shared reader (src/catalog/csv-records.ts), which the console's upload uses too.
 */
import { createReadStream } from "node:fs";
import { type CsvRecord, readCsvRecords as readCsvText } from "../../src/catalog/csv-records";

export type { CsvRecord };

export function readCsvRecords(file: string): AsyncGenerator<CsvRecord> {
  return readCsvText(createReadStream(file, { encoding: "utf8" }) as AsyncIterable<string>);
}
