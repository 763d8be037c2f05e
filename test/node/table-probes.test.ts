/**
 * Objects on the kernel never ask whether a table exists (issue 27: "no hasTable probe
 * left"): their layout is numbered migrations on the schema_version row
 * (durable-objects/shared/kernel.ts), so every table is there once anything is stored, and a
 * read of nothing is answered by ObjectStore.read. Read off the sources: no file of
 * durable-objects/ calls shared/schema.ts's hasTable or ensureTables, except the ones listed
 * here, each still to move.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./store-fixture";

const OBJECTS = path.join(ROOT, "durable-objects");

/** Files still allowed to probe: the helpers themselves, and the owner check (moving, issue 27). */
const STILL_PROBING = [path.join("shared", "schema.ts"), path.join("shared", "owner.ts")];

describe("table probes", () => {
  it("no object file outside the list asks whether a table exists or creates one lazily", () => {
    const probing = readdirSync(OBJECTS, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .filter((f) => /\b(hasTable|ensureTables)\(/.test(readFileSync(path.join(OBJECTS, f), "utf8")))
      .filter((f) => !STILL_PROBING.includes(f));
    expect(probing).toEqual([]);
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
