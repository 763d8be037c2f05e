/**
 * The rules biome.json keeps (run by `npm run lint`, so by `npm run check` and .ci/run): only
 * durable-objects/ touches SqlStorage, and zod is imported as a namespace. The real biome, with
 * this repository's biome.json, lints a scratch tree laid out like the repository, holding one
 * file per rule that breaks it and files that keep it. Each broken rule must be reported where
 * it is broken, and nothing else. The import arrows between areas are
 * scripts/lint/import-rules.ts's table (test/node/import-arrows.test.ts).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./store-fixture";

const FILES: Record<string, string> = {
  // SQLite outside durable-objects/, by type and by property.
  "src/order/stores.ts": `export function rows(sql: SqlStorage): unknown {
  return sql;
}
export function viaState(ctx: DurableObjectState): unknown {
  return ctx.storage.sql;
}
`,
  // The REST binding and the shared pipeline reaching for storage.
  "src/rest/reaches-storage.ts": `export function replay(sql: SqlStorage): unknown {
  return sql;
}
`,
  "src/pipeline/reads-sql.ts": `export const rows = (ctx: DurableObjectState): unknown => ctx.storage.sql;
`,
  // The rule's keeper: an object file using SqlStorage.
  "durable-objects/keeps.ts": `export function rows(ctx: DurableObjectState): SqlStorage {
  return ctx.storage.sql;
}
`,
  // The zod rule from the root configuration, in domain code and in a transport.
  "src/payment/zod-named.ts": `import { z } from "zod";
export const s = z.string();
`,
  "src/mcp/zod-namespace.ts": `import * as z from "zod";
export const s = z.string();
`,
};

interface Diagnostic {
  readonly severity: string;
  readonly category: string;
  readonly location: { readonly path: string; readonly start: { readonly line: number } };
}

let dir: string;
let found: Diagnostic[];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "import-rules-"));
  cpSync(path.join(ROOT, "biome.json"), path.join(dir, "biome.json"));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const biome = path.join(ROOT, "node_modules/.bin/biome");
  const run = spawnSync(biome, ["lint", "--reporter=json", "--max-diagnostics=none", "src", "durable-objects"], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(1);
  found = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics.filter((d) => d.severity === "error");
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** "category line" for each error in one file, in order. */
function errorsIn(file: string): string[] {
  return found
    .filter((d) => d.location.path === file)
    .map((d) => `${d.category} ${d.location.start.line}`)
    .sort();
}

describe("storage and zod rules (biome.json)", () => {
  it("only durable-objects/ touches SqlStorage or storage.sql", () => {
    expect(errorsIn("src/order/stores.ts")).toEqual([
      "lint/nursery/noJsRestrictedProperties 5",
      "lint/style/noRestrictedTypes 1",
    ]);
    expect(errorsIn("src/rest/reaches-storage.ts")).toEqual(["lint/style/noRestrictedTypes 1"]);
    expect(errorsIn("src/pipeline/reads-sql.ts")).toEqual(["lint/nursery/noJsRestrictedProperties 1"]);
    expect(errorsIn("durable-objects/keeps.ts")).toEqual([]);
  });

  it("zod is imported as a namespace", () => {
    expect(errorsIn("src/payment/zod-named.ts")).toEqual(["lint/style/noRestrictedImports 1"]);
    expect(errorsIn("src/mcp/zod-namespace.ts")).toEqual([]);
  });

  it("reports nothing else", () => {
    const files = new Set(found.map((d) => d.location.path));
    expect([...files].sort()).toEqual(
      [
        "src/order/stores.ts",
        "src/payment/zod-named.ts",
        "src/pipeline/reads-sql.ts",
        "src/rest/reaches-storage.ts",
      ].sort(),
    );
  });
});
