/**
 * What `npm start` prints while it serves: every line the Worker writes (its JSON request and
 * order lines, src/lib/log.ts, and anything else it logs), and before each request line a
 * readable one, `POST /ucp/mcp 200 OK (12ms) tools/call search_catalog`, as wrangler dev's
 * request log read. Made from the Worker's own line, in this process, which receives workerd's
 * output anyway: no extra hop per request (Miniflare's request log is a loopback HTTP call to
 * node from a worker in front). Files the [assets] layer serves (discovery, /assets/…) never
 * reach the Worker and print nothing, as in Workers Logs. Stack frames in the minified
 * bundle are given their source file and line through the bundle's source map, as wrangler
 * dev gave them (only lines that name a `file://` module are looked at).
 */
import { existsSync, readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import { SourceMap } from "node:module";
import path from "node:path";
import readline from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

interface RequestLine {
  log: "request";
  method?: string;
  path?: string;
  status?: number;
  duration_ms?: number;
  rpc?: string;
  tool?: string;
}

/** The readable line for one of the Worker's request lines, or undefined for any other line. */
export function readableRequest(line: string): string | undefined {
  if (!line.startsWith('{"log":"request"')) return undefined;
  let entry: RequestLine;
  try {
    entry = JSON.parse(line) as RequestLine;
  } catch {
    return undefined;
  }
  const status = entry.status ?? 0;
  const text = STATUS_CODES[status];
  const what = [entry.rpc, entry.tool].filter(Boolean).join(" ");
  return `${entry.method} ${entry.path} ${status}${text ? ` ${text}` : ""} (${entry.duration_ms}ms)${what ? ` ${what}` : ""}`;
}

const maps = new Map<string, { map: SourceMap; dir: string } | undefined>();

function sourceMap(file: string): { map: SourceMap; dir: string } | undefined {
  if (!maps.has(file)) {
    const mapFile = `${file}.map`;
    maps.set(
      file,
      existsSync(mapFile)
        ? { map: new SourceMap(JSON.parse(readFileSync(mapFile, "utf8"))), dir: path.dirname(file) }
        : undefined,
    );
  }
  return maps.get(file);
}

/** `file:///…/index.js:1:2345` in a stack line as its source position, `src/x.ts:12:5`, where the map knows it. */
export function sourceMapped(line: string, root = process.cwd()): string {
  if (!line.includes("file://")) return line;
  return line.replace(/file:\/\/[^\s():]+\.m?js:(\d+):(\d+)/g, (frame, row: string, column: string) => {
    const file = fileURLToPath(frame.slice(0, frame.length - row.length - column.length - 2));
    const found = sourceMap(file);
    const entry = found?.map.findEntry(Number(row) - 1, Number(column) - 1) as
      | { originalSource?: string; originalLine?: number; originalColumn?: number }
      | undefined;
    if (!found || entry?.originalSource === undefined) return frame;
    const source = entry.originalSource.startsWith("file://")
      ? fileURLToPath(entry.originalSource)
      : path.resolve(found.dir, entry.originalSource);
    return `${path.relative(root, source)}:${(entry.originalLine ?? 0) + 1}:${(entry.originalColumn ?? 0) + 1}`;
  });
}

/** Miniflare's handleRuntimeStdio: workerd's stdout and stderr, line by line, to ours. */
export function printRuntimeOutput(stdout: Readable, stderr: Readable): void {
  readline.createInterface(stdout).on("line", (line) => {
    const readable = readableRequest(line);
    process.stdout.write(readable === undefined ? `${sourceMapped(line)}\n` : `${readable}\n${line}\n`);
  });
  readline.createInterface(stderr).on("line", (line) => {
    // workerd's own noise that Miniflare hides too (no symbolizer, hex stacks).
    if (/LLVM_SYMBOLIZER|took recursive isolate lock|stack:( (0|[a-f\d]{4,})){3,}/.test(line)) return;
    process.stderr.write(`${sourceMapped(line)}\n`);
  });
}
