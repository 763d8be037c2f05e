/**
 * The shared CSV reader (src/catalog/csv-records.ts) takes text in chunks: a file's reads on
 * the command line, a request body's decoded parts in the console. Where the chunks break
 * must not change a record, its line, or a broken record's place.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type CsvRecord, readCsvRecords } from "../../src/catalog/csv-records";

async function records(chunks: string[]): Promise<CsvRecord[]> {
  async function* feed() {
    yield* chunks;
  }
  const out: CsvRecord[] = [];
  for await (const record of readCsvRecords(feed())) out.push(record);
  return out;
}

function cut(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

const BROKEN = readFileSync(path.join(import.meta.dirname, "fixtures/catalog-broken.csv"), "utf8");

describe("CSV records from chunks", () => {
  it("CRLF split between chunks, quoted line breaks and a broken quote read the same at any chunk size", async () => {
    const text = BROKEN.replaceAll("\n", "\r\n");
    const whole = await records([text]);
    expect(whole.map((r) => r.line)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(whole.find((r) => r.line === 9)?.error).toMatch(/a double quote inside an unquoted field/);
    expect(whole[1]?.fields[3]).toBe("A soft tee.\nDries fast.");
    for (const size of [1, 2, 3, 7, 64]) expect(await records(cut(text, size))).toEqual(whole);
  });

  it("a lone CR at the very end is a line break, not lost", async () => {
    expect(await records(["a,b\r", "c,d\r"])).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["c", "d"] },
    ]);
  });
});
