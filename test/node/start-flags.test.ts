/**
 * `npm start`'s flags (scripts/lib/start-flags.ts) and the readable request line it prints
 * (scripts/lib/serve-log.ts) with its source-mapped stack frames: the flags the README and the tests use are read as wrangler dev
 * read them, and a wrangler dev flag npm start no longer runs is refused with the way to get
 * it, never silently dropped.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { CliError } from "../../scripts/lib/cli-error";
import { readableRequest, sourceMapped } from "../../scripts/lib/serve-log";
import { startFlags } from "../../scripts/lib/start-flags";

describe("startFlags", () => {
  it("reads every flag npm start takes, in both forms, the last one winning", () => {
    expect(
      startFlags([
        "--port",
        "9001",
        "--ip=127.0.0.1",
        "--persist-to",
        "/tmp/s",
        "--var",
        "A:b:c",
        "--var=TAX:{}",
        "--var",
        "A:d",
        "--demo",
        "--inspector-port",
        "9229",
        "--inspector-ip",
        "0.0.0.0",
        "--port=9002",
      ]),
    ).toEqual({
      port: "9002",
      ip: "127.0.0.1",
      persistTo: "/tmp/s",
      vars: { A: "d", TAX: "{}" },
      inspectorPort: "9229",
      inspectorIp: "0.0.0.0",
      demo: true,
    });
    expect(startFlags([])).toEqual({ vars: {}, demo: false });
  });

  it("refuses a wrangler dev flag it does not run, naming npm run dev", () => {
    expect(() => startFlags(["--live-reload"])).toThrow(CliError);
    expect(() => startFlags(["--log-level", "warn"])).toThrow("npm run dev -- --log-level");
  });

  it("refuses a flag without its value and a port that is not one", () => {
    expect(() => startFlags(["--port"])).toThrow("--port needs a value");
    expect(() => startFlags(["--persist-to", "--demo"])).toThrow("--persist-to needs a value");
    expect(() => startFlags(["--port", "abc"])).toThrow('--port must be a port number (1-65535), got "abc"');
    expect(() => startFlags(["--inspector-port=70000"])).toThrow("--inspector-port must be a port number");
    expect(() => startFlags(["--var", "NOCOLON"])).toThrow('--var takes NAME:VALUE, got "NOCOLON"');
  });
});

describe("readableRequest", () => {
  it("makes one readable line of the Worker's JSON request line, and none of any other", () => {
    const line = JSON.stringify({
      log: "request",
      request_id: "r1",
      method: "POST",
      path: "/ucp/mcp",
      rpc: "tools/call",
      tool: "search_catalog",
      outcome: "ok",
      status: 200,
      duration_ms: 12,
    });
    expect(readableRequest(line)).toBe("POST /ucp/mcp 200 OK (12ms) tools/call search_catalog");
    expect(
      readableRequest(JSON.stringify({ log: "request", method: "GET", path: "/x", status: 599, duration_ms: 0 })),
    ).toBe("GET /x 599 (0ms)");
    expect(readableRequest(JSON.stringify({ log: "order", order_id: "o", event: "created" }))).toBeUndefined();
    expect(readableRequest('{"log":"request", broken')).toBeUndefined();
    expect(readableRequest("plain text")).toBeUndefined();
  });
});

describe("sourceMapped", () => {
  it("gives a minified bundle's stack frame its source file and line, and leaves other lines alone", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ucp-serve-log-"));
    try {
      const source = path.join(dir, "src", "boom.ts");
      mkdirSync(path.dirname(source));
      writeFileSync(source, 'export const a = 1;\n\nexport function boom(): never {\n  throw new Error("boom");\n}\n');
      const out = path.join(dir, "out", "index.js");
      buildSync({ entryPoints: [source], outfile: out, bundle: true, format: "esm", minify: true, sourcemap: true });
      const code = readFileSync(out, "utf8");
      const column = code.indexOf("throw") + 1;
      const frame = `    at boom (${pathToFileURL(out).href}:1:${column})`;
      expect(sourceMapped(frame, dir)).toBe(`    at boom (${path.join("src", "boom.ts")}:4:3)`);
      expect(sourceMapped("plain line", dir)).toBe("plain line");
      const unmapped = `    at x (${pathToFileURL(path.join(dir, "none.js")).href}:1:1)`;
      expect(sourceMapped(unmapped, dir)).toBe(unmapped);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
