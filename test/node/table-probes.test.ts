/**
 * Objects on the kernel never ask whether a table exists (issue 27: "no hasTable probe
 * left"): their layout is numbered migrations on the schema_version row
 * (durable-objects/shared/kernel.ts), so every table is there once anything is stored, and a
 * read of nothing is answered by ObjectStore.read. Read off the sources: no file of
 * durable-objects/ calls a hasTable or ensureTables (shared/schema.ts, which held them, is gone).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./store-fixture";

const OBJECTS = path.join(ROOT, "durable-objects");

describe("table probes", () => {
  it("no object file asks whether a table exists or creates one lazily, and the helpers are gone", () => {
    const files = readdirSync(OBJECTS, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    const probing = files.filter((f) =>
      /\b(hasTable|ensureTables)\(/.test(readFileSync(path.join(OBJECTS, f), "utf8")),
    );
    expect(probing).toEqual([]);
    expect(files).not.toContain(path.join("shared", "schema.ts"));
  });

  it("the inventory object and its helpers import nothing of shared/schema.ts", () => {
    const files = [
      "inventory-object.ts",
      ...readdirSync(path.join(OBJECTS, "inventory")).map((f) => path.join("inventory", f)),
      path.join("shared", "availability-publisher.ts"),
      path.join("shared", "reservation-returns.ts"),
      path.join("shared", "stock-shard.ts"),
    ];
    const importing = files.filter((f) => readFileSync(path.join(OBJECTS, f), "utf8").includes('/schema"'));
    expect(importing).toEqual([]);
  });
});
