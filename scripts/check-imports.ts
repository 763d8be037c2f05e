/**
 * `npm run lint`'s import check: every file of src/, durable-objects/ and schemas/ against the
 * house rules' arrows (scripts/lint/import-rules.ts). Prints each refused import as
 * `file:line` with the rule it breaks; exits 1 if there is any.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { areaOf, checkSource } from "./lint/import-rules";

const ROOT = path.resolve(import.meta.dirname, "..");
const TREES = ["src", "durable-objects", "schemas"];

const files = TREES.flatMap((tree) =>
  readdirSync(path.join(ROOT, tree), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f))
    .map((f) => path.posix.join(tree, f.split(path.sep).join("/"))),
);
const unplaced = files.filter((f) => areaOf(f) === undefined);
const found = files.flatMap((f) => checkSource(f, readFileSync(path.join(ROOT, f), "utf8")));

for (const f of unplaced) console.error(`${f}: in no area of scripts/lint/import-rules.ts (add its folder to AREAS)`);
for (const v of found) console.error(`${v.file}:${v.line} ${v.specifier}\n  ${v.message}`);
if (unplaced.length > 0 || found.length > 0) {
  console.error(`\nimport rules: ${found.length} refused import(s), ${unplaced.length} file(s) in no area`);
  process.exit(1);
}
console.log(`import rules: ${files.length} files keep the arrows`);
