/**
 * Which requests npm start's edge module sends to the assets layer (scripts/lib/start-edge.ts):
 * the [assets] folder's files, as Cloudflare's default html_handling serves them, and never
 * its `_headers`/`_redirects` configuration files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assetPaths } from "../../scripts/lib/start-edge";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("assetPaths", () => {
  it("lists the store's discovery files and not _headers", () => {
    expect(assetPaths(path.join(ROOT, "public"))).toEqual(["/.well-known/ucp", "/.well-known/ucp-profiles/2026-04-08"]);
  });

  it("adds the paths html_handling serves an .html file and a folder's index.html at", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ucp-start-edge-"));
    try {
      mkdirSync(path.join(dir, "help"));
      for (const f of ["index.html", "about.html", "help/index.html", "logo 1.png", "_redirects"])
        writeFileSync(path.join(dir, f), "x");
      expect(assetPaths(dir)).toEqual([
        "/",
        "/about",
        "/about.html",
        "/help",
        "/help/",
        "/help/index.html",
        "/index.html",
        "/logo%201.png",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
