/**
 * What `npm start` prints while it serves: every line the Worker writes (its JSON request and
 * order lines, src/lib/log.ts, and anything else it logs), and before each request line a
 * readable one, `POST /ucp/mcp 200 OK (12ms) tools/call search_catalog`, as wrangler dev's
 * request log read. Made from the Worker's own line, in this process, which receives workerd's
 * output anyway: no extra hop per request (Miniflare's request log is a loopback HTTP call to
 * node from a worker in front). Files the [assets] layer serves (discovery, /assets/…) never
 * reach the Worker and print nothing, as in Workers Logs.
 */
import { STATUS_CODES } from "node:http";
import readline from "node:readline";
import type { Readable } from "node:stream";

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

/** Miniflare's handleRuntimeStdio: workerd's stdout and stderr, line by line, to ours. */
export function printRuntimeOutput(stdout: Readable, stderr: Readable): void {
  readline.createInterface(stdout).on("line", (line) => {
    const readable = readableRequest(line);
    process.stdout.write(readable === undefined ? `${line}\n` : `${readable}\n${line}\n`);
  });
  readline.createInterface(stderr).on("line", (line) => {
    // workerd's own noise that Miniflare hides too (no symbolizer, hex stacks).
    if (/LLVM_SYMBOLIZER|took recursive isolate lock|stack:( (0|[a-f\d]{4,})){3,}/.test(line)) return;
    process.stderr.write(`${line}\n`);
  });
}
