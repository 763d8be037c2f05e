/**
 * The house rules' import check (biome.json overrides + scripts/lint/*.grit, run by
 * `npm run lint`, so by `npm run check` and .ci/run): the real biome, with this repository's
 * biome.json, lints a scratch tree laid out like the repository, holding one file per rule
 * that breaks it and files that keep it. Each broken rule must be reported where it is
 * broken, and nothing else.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./store-fixture";

const FILES: Record<string, string> = {
  // Domain code reaching into a transport, the console, the tool layer and an object.
  "src/cart/reaches-out.ts": `import { normalize } from "../mcp/normalize";
import { adminRouter } from "../admin/router";
import type { UcpEnvelope } from "../tools/types";
import type { CartObject } from "../../durable-objects/cart-object";
export const all: unknown[] = [normalize, adminRouter, {} as UcpEnvelope, {} as CartObject];
`,
  // Depth does not matter: src/lib/geo/ is domain code too.
  "src/lib/geo/deep.ts": `import { ownerOf } from "../../../durable-objects/shared/owner";
export const o = ownerOf;
`,
  // SQLite outside durable-objects/, by type and by property.
  "src/order/stores.ts": `export function rows(sql: SqlStorage): unknown {
  return sql;
}
export function viaState(ctx: DurableObjectState): unknown {
  return ctx.storage.sql;
}
`,
  // Protocol vocabulary importing a transport.
  "src/ucp/uses-transport.ts": `import { handleMcp } from "../mcp/http";
export const h = handleMcp;
`,
  // A transport taking a value from durable-objects/ (a type is fine).
  "src/mcp/takes-value.ts": `import type { CheckoutObject } from "../../durable-objects/checkout-object";
import { INVENTORY_NAME } from "../../durable-objects/shared/inventory-plan";
export const n: [string, CheckoutObject | undefined] = [INVENTORY_NAME, undefined];
`,
  // The REST binding reaching for an object's ledger code and its storage.
  "src/rest/reaches-storage.ts": `import { checkLedger } from "../../durable-objects/shared/idempotency";
export function replay(sql: SqlStorage): unknown {
  return [checkLedger, sql];
}
`,
  // The shared pipeline taking a value from durable-objects/ and reading storage.sql.
  "src/pipeline/takes-value.ts": `import type { CartObject } from "../../durable-objects/cart-object";
import { INVENTORY_NAME } from "../../durable-objects/shared/inventory-plan";
export const n: [string, CartObject | undefined] = [INVENTORY_NAME, undefined];
export const rows = (ctx: DurableObjectState): unknown => ctx.storage.sql;
`,
  // The rules' keepers: an object file using SqlStorage, the console naming an object's types.
  "durable-objects/keeps.ts": `export function rows(ctx: DurableObjectState): SqlStorage {
  return ctx.storage.sql;
}
`,
  "src/admin/types-only.ts": `import type { ChangeReply } from "../../durable-objects/order-object";
export type Reply = ChangeReply;
`,
  "src/rest/types-only.ts": `import type { CheckoutReply } from "../../durable-objects/checkout-object";
export type Reply = CheckoutReply;
`,
  // The zod rule from the root configuration still holds inside a per-directory override.
  "src/payment/zod-named.ts": `import { z } from "zod";
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
  cpSync(path.join(ROOT, "scripts/lint"), path.join(dir, "scripts/lint"), { recursive: true });
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

describe("import rules (biome.json)", () => {
  it("domain code may not import src/mcp, src/admin, src/tools or durable-objects, even types, at any depth", () => {
    expect(errorsIn("src/cart/reaches-out.ts")).toEqual([1, 2, 3, 4].map((l) => `lint/style/noRestrictedImports ${l}`));
    expect(errorsIn("src/lib/geo/deep.ts")).toEqual(["lint/style/noRestrictedImports 1"]);
  });

  it("only durable-objects/ touches SqlStorage or storage.sql", () => {
    expect(errorsIn("src/order/stores.ts")).toEqual([
      "lint/nursery/noJsRestrictedProperties 5",
      "lint/style/noRestrictedTypes 1",
    ]);
    expect(errorsIn("durable-objects/keeps.ts")).toEqual([]);
  });

  it("src/ucp/ imports no transport", () => {
    expect(errorsIn("src/ucp/uses-transport.ts")).toEqual(["lint/style/noRestrictedImports 1"]);
  });

  it("transports and the console take only types from durable-objects/", () => {
    expect(errorsIn("src/mcp/takes-value.ts")).toEqual(["plugin 2"]);
    expect(errorsIn("src/admin/types-only.ts")).toEqual([]);
  });

  it("the REST binding and the shared pipeline take only types from durable-objects/ and never touch SqlStorage", () => {
    expect(errorsIn("src/rest/reaches-storage.ts")).toEqual(["lint/style/noRestrictedTypes 2", "plugin 1"]);
    expect(errorsIn("src/pipeline/takes-value.ts")).toEqual(["lint/nursery/noJsRestrictedProperties 4", "plugin 2"]);
    expect(errorsIn("src/rest/types-only.ts")).toEqual([]);
  });

  it("the root zod rule still applies inside a directory override", () => {
    expect(errorsIn("src/payment/zod-named.ts")).toEqual(["lint/style/noRestrictedImports 1"]);
  });

  it("reports nothing else", () => {
    const files = new Set(found.map((d) => d.location.path));
    expect([...files].sort()).toEqual(
      [
        "src/cart/reaches-out.ts",
        "src/lib/geo/deep.ts",
        "src/mcp/takes-value.ts",
        "src/order/stores.ts",
        "src/payment/zod-named.ts",
        "src/pipeline/takes-value.ts",
        "src/rest/reaches-storage.ts",
        "src/ucp/uses-transport.ts",
      ].sort(),
    );
  });
});
