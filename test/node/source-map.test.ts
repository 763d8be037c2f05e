/**
 * README's "Source map" is a map a newcomer can trust (issue 27 item 7):
 * - every path it names exists: the backticked paths of a row's first cell (the first from the
 *   repository's root, the rest beside it), backticked paths in its description (from the
 *   root, inside a folder the row names or beside what it names), and its links;
 * - every area it must cover is named: each entry of src/, each folder and object file of
 *   durable-objects/, each folder of scripts/, bench/, test/ and migrations/;
 * - each area has its RULES.md (always / ask first / never), and a src/ or durable-objects/
 *   RULES.md states the import arrows scripts/lint/import-rules.ts holds for it, word for word;
 * - docs/decisions.md, the index of the decisions, links every file of docs/decisions/ and no other.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARROWS, type Area, areaOf } from "../../scripts/lint/import-rules";
import { ROOT } from "./store-fixture";

const RULES = "RULES.md";

interface Row {
  readonly line: string;
  /** Folders the row's relative names resolve from. */
  readonly bases: readonly string[];
  readonly named: readonly string[];
}

function sourceMap(): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Source map\n");
  if (start < 0) throw new Error('README.md has no "## Source map" section');
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** A backticked token that names a file or folder (a slash or a file ending, no spaces). */
function isPathToken(token: string): boolean {
  return /^[\w.@-]+(\/[\w.@-]*)*$/.test(token) && (token.includes("/") || /\.(ts|mjs|json|sql|md|csv)$/.test(token));
}

const trim = (p: string) => p.replace(/\/+$/, "");
const dirOf = (p: string) => (p.endsWith("/") || isDir(trim(p)) ? trim(p) : path.posix.dirname(p));
const isDir = (p: string) => existsSync(path.join(ROOT, p)) && statSync(path.join(ROOT, p)).isDirectory();

function rows(): Row[] {
  return sourceMap()
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, first = "", ...rest] = line.split("|");
      const heads = [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
      // The first cell's other names are the first's siblings: `src/config.ts`, `merchant-vars.ts`.
      const siblings = path.posix.dirname(trim(heads[0] ?? ""));
      const named = [...heads.slice(0, 1), ...heads.slice(1).map((h) => (exists(h) ? h : `${siblings}/${h}`))];
      // A description's names are inside a named folder, or beside a named file or folder.
      const bases = named.flatMap((p) => (isDir(trim(p)) ? [trim(p), path.posix.dirname(trim(p))] : [dirOf(p)]));
      return { line, bases, named: named.concat(describedPaths(rest.join("|"), bases)) };
    });
}

function exists(p: string): boolean {
  return p !== "" && existsSync(path.join(ROOT, p));
}

/** Paths a description names: backticked ones from the root or a row's folder, and links. */
function describedPaths(text: string, bases: readonly string[]): string[] {
  const ticked = [...text.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1] ?? "")
    .filter(isPathToken)
    .map((t) => (exists(t) ? t : (bases.map((b) => `${b}/${t}`).find(exists) ?? `${bases[0]}/${t}`)));
  const linked = [...text.matchAll(/\]\(([^)#\s]+)/g)].map((m) => m[1] ?? "");
  return [...ticked, ...linked];
}

function mentioned(): Set<string> {
  const all = new Set<string>();
  for (const row of rows()) {
    for (const p of row.named) {
      let at = trim(p);
      while (at !== "." && at !== "") {
        all.add(at);
        at = path.posix.dirname(at);
      }
    }
  }
  return all;
}

const entries = (dir: string, keep: (name: string, folder: boolean) => boolean) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.name !== RULES && keep(e.name, e.isDirectory()))
    .map((e) => `${dir}/${e.name}`);

/** What the map must name: the areas a newcomer looks for first. */
function areas(): string[] {
  return [
    ...entries("src", () => true),
    ...entries("durable-objects", (name, folder) => folder || name.endsWith(".ts")),
    ...["scripts", "bench", "test", "migrations"].flatMap((dir) => entries(dir, (_, folder) => folder)),
  ].sort();
}

/** The folders that keep a RULES.md: each src/ area and each top-level area. */
function ruledFolders(): string[] {
  return [...entries("src", (_, folder) => folder), "durable-objects", "scripts", "test", "bench", "migrations"];
}

function arrowsLine(area: Area): string {
  const { may, typesOnly } = ARROWS[area];
  const list = area === "entry" ? "every area" : may.length ? may.join(", ") : "nothing of the store's own";
  const types = typesOnly?.length ? `; types only from ${typesOnly.join(", ")}` : "";
  return `Import area \`${area}\` (scripts/lint/import-rules.ts): may import ${list}${types}.`;
}

describe("README source map", () => {
  it("names only paths that exist", () => {
    const missing = rows().flatMap((row) =>
      row.named.filter((p) => !exists(p)).map((p) => `${p}  (row: ${row.line.slice(0, 60)}…)`),
    );
    expect(missing).toEqual([]);
  });

  it("names every area of src/, durable-objects/, scripts/, bench/, test/ and migrations/", () => {
    const named = mentioned();
    expect(areas().filter((a) => !named.has(a))).toEqual([]);
  });
});

describe("RULES.md per area", () => {
  it.each(ruledFolders())("%s has a RULES.md with always, ask first and never, 10-25 lines", (folder) => {
    const file = path.join(ROOT, folder, RULES);
    expect(existsSync(file), `${folder}/${RULES}`).toBe(true);
    const text = readFileSync(file, "utf8");
    for (const heading of ["## Always", "## Ask first", "## Never"]) expect(text).toContain(`\n${heading}\n`);
    const lines = text.trimEnd().split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(10);
    expect(lines).toBeLessThanOrEqual(25);
  });

  it.each(ruledFolders().filter((f) => areaOf(`${f}/x.ts`)))(
    "%s/RULES.md states the import arrows of scripts/lint/import-rules.ts",
    (folder) => {
      const area = areaOf(`${folder}/x.ts`) as Area;
      expect(readFileSync(path.join(ROOT, folder, RULES), "utf8")).toContain(arrowsLine(area));
    },
  );
});

describe("docs/decisions.md index", () => {
  it("links every area file of docs/decisions/, and only files that exist", () => {
    const index = readFileSync(path.join(ROOT, "docs/decisions.md"), "utf8");
    const linked = [...index.matchAll(/\]\((decisions\/[^)#\s]+\.md)\)/g)].map((m) => `docs/${m[1]}`);
    const files = readdirSync(path.join(ROOT, "docs/decisions"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/decisions/${f}`);
    expect([...new Set(linked)].sort()).toEqual(files.sort());
  });
});
