/**
 * CSV text (a stream of decoded chunks) through csv-parse, yielding each record with the FILE
 * line it starts on (a quoted field may span lines, so record numbers would point at the
 * wrong line). A record csv-parse cannot read (broken quoting) is yielded with its error
 * instead of its fields, and parsing goes on with the next record. Web streams only, so the
 * command-line loader (a file) and the console's upload (a request body) read alike.
 */
import { Buffer } from "node:buffer";
import type { CsvError, Info } from "csv-parse";
import { parse } from "csv-parse/stream";

export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  readonly line: number;
  readonly fields: string[];
  readonly error?: string;
}

/**
 * CRLF and lone CR become LF before csv-parse sees them: its line count (`info.lines`)
 * counts a CRLF inside a quoted field twice, and only one delimiter keeps the count exact.
 */
async function* lfOnly(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pendingCr = false;
  for await (const chunk of chunks) {
    let text: string = pendingCr ? `\r${chunk}` : chunk;
    // A CR at the end of a chunk may be the first half of a CRLF split across chunks.
    pendingCr = text.endsWith("\r");
    if (pendingCr) text = text.slice(0, -1);
    if (text !== "") yield text.replace(/\r\n?/g, "\n");
  }
  if (pendingCr) yield "\n";
}

/**
 * The line a record starts on, from the line csv-parse had reached (`lines`) and the raw
 * text read so far for the record (blank lines before it included), all with LF breaks.
 */
function startLine(lines: number, raw: string): number {
  const body = raw.replace(/^\n+/, "");
  const breaks = body.split("\n").length - 1;
  // A line break that ends the raw text (the record's own delimiter) is not counted yet.
  const trailing = body.endsWith("\n") ? 1 : 0;
  return lines - breaks + trailing;
}

export async function* readCsvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  // csv-parse reports a broken record (on_skip) while records before it still wait in the
  // stream: each skip remembers how many records preceded it, so all come out in file order.
  const skipped: Skipped[] = [];
  let parsed = 0;
  let lastSkipRaw: string | undefined;
  const parser = parse({
    bom: true,
    record_delimiter: "\n",
    info: true,
    raw: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (record: string[]) => {
      parsed++;
      lastSkipRaw = undefined;
      return record;
    },
    on_skip: (err: CsvError | undefined, raw: string | undefined) => {
      if (!err) return;
      const text = raw ?? "";
      // csv-parse may report one broken record several times as it reads on: keep the first.
      if (lastSkipRaw !== undefined && text.startsWith(lastSkipRaw)) return;
      lastSkipRaw = text;
      const lines = (err as CsvError & { lines?: number }).lines ?? 0;
      skipped.push({ after: parsed, line: startLine(lines, text), fields: [], error: describe(err) });
    },
  }) as TransformStream<Uint8Array, { record: string[]; info: Info; raw: string }>;
  const writer = parser.writable.getWriter();
  const feeding = (async () => {
    try {
      for await (const text of lfOnly(chunks)) await writer.write(Buffer.from(text, "utf8"));
      await writer.close();
    } catch (e) {
      await writer.abort(e).catch(() => {});
      throw e;
    }
  })();
  // Rejections surface through the reader (the aborted stream) or the final await below.
  feeding.catch(() => {});
  const reader = parser.readable.getReader();
  let yielded = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const chunk = next.value;
      while (skipped[0] && skipped[0].after <= yielded) yield withoutOrder(skipped.shift() as Skipped);
      yielded++;
      yield { line: startLine(chunk.info.lines, chunk.raw), fields: chunk.record };
    }
    await feeding;
    yield* skipped.map(withoutOrder);
  } finally {
    reader.releaseLock();
  }
}

function describe(err: CsvError): string {
  switch (err.code) {
    case "INVALID_OPENING_QUOTE":
      return 'a double quote inside an unquoted field (quote the whole field and double the quote: "5"" Shorts")';
    case "CSV_INVALID_CLOSING_QUOTE":
      return "text after a closing double quote (quote the whole field and double any quote inside it)";
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted field is never closed (every line after it was read as part of this field)";
    default:
      return err.message.replace(/\.$/, "");
  }
}

type Skipped = CsvRecord & { after: number };

function withoutOrder({ after: _after, ...record }: Skipped): CsvRecord {
  return record;
}
