/**
 * The house rules' import arrows (scripts/lint/import-rules.ts, run by `npm run lint`): each
 * file of test/fixtures/import-rules/ is read as the repository file its `// as:` line names
 * and must be refused for exactly the areas its `// refused:` line lists (`none`: accepted).
 * Then the real tree: every file is in an area, and none breaks an arrow.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AREAS, ARROWS, areaOf, checkSource } from "../../scripts/lint/import-rules";
import { ROOT } from "./store-fixture";

const FIXTURES = path.join(ROOT, "test/fixtures/import-rules");

interface Fixture {
  readonly name: string;
  readonly as: string;
  readonly refused: readonly string[];
  readonly text: string;
}

function fixtures(): Fixture[] {
  return readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((name) => {
      const text = readFileSync(path.join(FIXTURES, name), "utf8");
      const as = /^\/\/ as: (\S+)$/m.exec(text)?.[1];
      const refused = /^\/\/ refused: (.+)$/m.exec(text)?.[1];
      if (!as || !refused) throw new Error(`${name}: needs "// as: <path>" and "// refused: <areas>|none"`);
      return { name, as, text, refused: refused === "none" ? [] : refused.split(/,\s*/).sort() };
    });
}

function sourceFiles(): string[] {
  return ["src", "durable-objects", "schemas"].flatMap((tree) =>
    readdirSync(path.join(ROOT, tree), { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f))
      .map((f) => path.posix.join(tree, f.split(path.sep).join("/"))),
  );
}

const all = fixtures();
const breaking = all.filter((f) => f.refused.length > 0);

describe("import arrows: rule-breaking fixtures", () => {
  it("cover every area that has a line to keep", () => {
    const covered = new Set(breaking.map((f) => areaOf(f.as)));
    const bounded = AREAS.map(([area]) => area).filter((area) => area !== "entry");
    expect(bounded.filter((area) => !covered.has(area))).toEqual([]);
    expect(breaking.length).toBeGreaterThanOrEqual(14);
  });

  it.each(breaking.map((f) => [f.name, f] as const))("%s is refused", (_, f) => {
    const found = checkSource(f.as, f.text);
    expect([...new Set(found.map((v) => v.to))].sort(), found.map((v) => v.message).join("\n")).toEqual(f.refused);
    for (const v of found) expect(v.message).toContain(`${v.from} may not import`);
  });
});

describe("import arrows: clean fixtures", () => {
  it.each(all.filter((f) => f.refused.length === 0).map((f) => [f.name, f] as const))("%s is accepted", (_, f) => {
    expect(checkSource(f.as, f.text)).toEqual([]);
  });
});

describe("import arrows: the repository", () => {
  const files = sourceFiles();

  it("places every file of src/, durable-objects/ and schemas/ in an area", () => {
    expect(files.filter((f) => areaOf(f) === undefined)).toEqual([]);
  });

  it("breaks no arrow", { timeout: 30_000 }, () => {
    const found = files.flatMap((f) => checkSource(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found.map((v) => `${v.file}:${v.line} ${v.specifier}: ${v.message}`)).toEqual([]);
  });

  it("says why for every area", () => {
    for (const [area] of AREAS) expect(ARROWS[area].why.length, area).toBeGreaterThan(20);
  });
});
