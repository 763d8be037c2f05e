/**
 * Where the tests find the UCP schemas and seed documents (test/helpers/ucp-material.plugin.ts):
 * both spec layouts, the ../shared default, absence (skip with a notice) and the mistakes
 * that must stop a run (a wrong UCP_SPEC_DIR, absence under UCP_SPEC_REQUIRED).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadUcpMaterial, skippedNotice, ucpMaterial } from "../helpers/ucp-material.plugin";

const SCHEMA_COUNT = 60;

/** A folder with `SCHEMA_COUNT` schemas under `<base>/schemas/**` and the discovery profile schema. */
function specAt(base: string): void {
  for (let i = 0; i < SCHEMA_COUNT; i++) {
    const dir = path.join(base, "schemas", i % 2 ? "shopping" : "shopping/types");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `s${i}.json`), JSON.stringify({ $id: `https://ucp.dev/schemas/s${i}.json` }));
  }
  mkdirSync(path.join(base, "discovery"), { recursive: true });
  writeFileSync(path.join(base, "discovery", "profile_schema.json"), JSON.stringify({ title: "profile" }));
}

/** The 2026-08-25 sibling of a ../shared/ucp-like 2026-04-08 folder: schemas with profile.json. */
function currentAt(base: string): void {
  for (let i = 0; i < SCHEMA_COUNT; i++) {
    const dir = path.join(base, "schemas", i % 2 ? "shopping" : "common/types");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `c${i}.json`), JSON.stringify({ $id: `https://ucp.dev/schemas/c${i}.json` }));
  }
  writeFileSync(path.join(base, "schemas", "profile.json"), JSON.stringify({ title: "profile 2026-08-25" }));
}

function seedsAt(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "000_abc.txt"), "seed zero");
  writeFileSync(path.join(dir, "004_def.txt"), "seed four");
  writeFileSync(path.join(dir, "notes.md"), "not a seed");
}

/** A repository folder inside a fresh parent, so its ../shared is under our control. */
function repoIn(parent = mkdtempSync(path.join(tmpdir(), "ucp-material-"))): string {
  const repo = path.join(parent, "repo");
  mkdirSync(repo);
  return repo;
}

const configResolved = (plugin: ReturnType<typeof ucpMaterial>) => (plugin.configResolved as () => void)();

describe("loadUcpMaterial", () => {
  it("reads a UCP specification checkout (source/schemas, source/discovery)", () => {
    const spec = mkdtempSync(path.join(tmpdir(), "ucp-spec-"));
    specAt(path.join(spec, "source"));
    const found = loadUcpMaterial({ UCP_SPEC_DIR: spec }, repoIn());
    expect(found.schemas).toHaveLength(SCHEMA_COUNT);
    expect(found.profileSchema).toEqual({ title: "profile" });
    expect(found.specFrom).toBe(path.join(spec, "source"));
    // The specification has no seeds: without UCP_SEEDS_DIR or ../shared/seeds there are none.
    expect(found.seeds).toEqual({});
  });

  it("reads a ../shared/ucp-like UCP_SPEC_DIR and the seeds beside it", () => {
    const shared = mkdtempSync(path.join(tmpdir(), "ucp-shared-"));
    specAt(path.join(shared, "ucp", "2026-04-08"));
    seedsAt(path.join(shared, "seeds"));
    const without = loadUcpMaterial({ UCP_SPEC_DIR: path.join(shared, "ucp") }, repoIn());
    expect(without.currentSchemas).toEqual([]);
    expect(skippedNotice(without)).toMatch(/^Skipped UCP 2026-08-25 schema checks:/);
    currentAt(path.join(shared, "ucp", "2026-08-25"));
    const found = loadUcpMaterial({ UCP_SPEC_DIR: path.join(shared, "ucp") }, repoIn());
    expect(found.schemas).toHaveLength(SCHEMA_COUNT);
    expect(found.currentSchemas).toHaveLength(SCHEMA_COUNT + 1);
    expect(found.seeds).toEqual({ "000": "seed zero", "004": "seed four" });
    expect(skippedNotice(found)).toBeUndefined();
  });

  it("defaults to ../shared beside the repository", () => {
    const parent = mkdtempSync(path.join(tmpdir(), "ucp-parent-"));
    specAt(path.join(parent, "shared", "ucp", "2026-04-08"));
    seedsAt(path.join(parent, "shared", "seeds"));
    const found = loadUcpMaterial({}, repoIn(parent));
    expect(found.schemas).toHaveLength(SCHEMA_COUNT);
    expect(Object.keys(found.seeds)).toEqual(["000", "004"]);
  });

  it("UCP_SEEDS_DIR wins over the default", () => {
    const parent = mkdtempSync(path.join(tmpdir(), "ucp-parent-"));
    seedsAt(path.join(parent, "shared", "seeds"));
    const own = path.join(parent, "own-seeds");
    mkdirSync(own);
    writeFileSync(path.join(own, "002_x.txt"), "seed two");
    expect(loadUcpMaterial({ UCP_SEEDS_DIR: own }, repoIn(parent)).seeds).toEqual({ "002": "seed two" });
  });

  it("finds nothing without variables or ../shared, and says what is skipped and how to enable it", () => {
    const found = loadUcpMaterial({}, repoIn());
    expect(found.schemas).toEqual([]);
    expect(found.seeds).toEqual({});
    const notice = skippedNotice(found) ?? "";
    expect(notice).toMatch(/^Skipped official UCP schema checks and seed suites/);
    expect(notice).toContain("UCP_SPEC_DIR");
    expect(notice.split("\n")).toHaveLength(1);
  });

  it("names a UCP_SPEC_DIR that holds no specification", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "ucp-empty-"));
    expect(() => loadUcpMaterial({ UCP_SPEC_DIR: empty }, repoIn())).toThrow(
      `UCP_SPEC_DIR=${empty}: found neither ${empty}/source/schemas`,
    );
  });

  it("names a folder with too few schemas for the 2026-04-08 set, and a schema that is not JSON", () => {
    const spec = mkdtempSync(path.join(tmpdir(), "ucp-few-"));
    mkdirSync(path.join(spec, "source", "schemas"), { recursive: true });
    writeFileSync(path.join(spec, "source", "schemas", "one.json"), "{}");
    expect(() => loadUcpMaterial({ UCP_SPEC_DIR: spec }, repoIn())).toThrow(/1 schemas and no .*profile_schema\.json/);
    writeFileSync(path.join(spec, "source", "schemas", "bad.json"), "{ nope");
    expect(() => loadUcpMaterial({ UCP_SPEC_DIR: spec }, repoIn())).toThrow(/bad\.json: not valid JSON/);
  });

  it("names a UCP_SEEDS_DIR that does not exist", () => {
    expect(() => loadUcpMaterial({ UCP_SEEDS_DIR: "/nonexistent/seeds" }, repoIn())).toThrow(
      "UCP_SEEDS_DIR=/nonexistent/seeds: no such folder",
    );
  });
});

describe("the vitest plugin", () => {
  it("refuses to start under UCP_SPEC_REQUIRED when material is missing, naming what", () => {
    const plugin = ucpMaterial({ UCP_SPEC_REQUIRED: "1" }, repoIn());
    expect(() => configResolved(plugin)).toThrow(
      /UCP_SPEC_REQUIRED is set, so nothing may be skipped, but the official schemas \(not found.*\) and the seed documents \(not found.*\) are missing/,
    );
  });

  it("starts under UCP_SPEC_REQUIRED when everything is there, and serves it as virtual:ucp-material", async () => {
    const parent = mkdtempSync(path.join(tmpdir(), "ucp-parent-"));
    specAt(path.join(parent, "shared", "ucp", "2026-04-08"));
    currentAt(path.join(parent, "shared", "ucp", "2026-08-25"));
    seedsAt(path.join(parent, "shared", "seeds"));
    const plugin = ucpMaterial({ UCP_SPEC_REQUIRED: "1" }, repoIn(parent));
    expect(() => configResolved(plugin)).not.toThrow();
    const resolveId = plugin.resolveId as (id: string) => string | undefined;
    const id = resolveId("virtual:ucp-material");
    expect(id).toBeDefined();
    const code = (plugin.load as (id: string) => string)(id as string);
    const dataUrl = `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
    const served = await import(/* @vite-ignore */ dataUrl);
    expect(served.schemas).toHaveLength(SCHEMA_COUNT);
    expect(served.profileSchema).toEqual({ title: "profile" });
    expect(served.seeds["004"]).toBe("seed four");
    expect(served.currentSchemas).toContainEqual({ title: "profile 2026-08-25" });
  });

  it("writes its notice to UCP_NOTICE_FILE (where npm test collects it) instead of the console", () => {
    const notices = path.join(mkdtempSync(path.join(tmpdir(), "ucp-notice-")), "notices");
    const plugin = ucpMaterial({ UCP_NOTICE_FILE: notices }, repoIn());
    configResolved(plugin);
    // One notice per process: another project config in the same run adds nothing.
    configResolved(ucpMaterial({ UCP_NOTICE_FILE: notices }, repoIn()));
    expect(readLines(notices)).toHaveLength(1);
  });
});

function readLines(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").filter(Boolean);
}
