/**
 * The one place tests find material that lives outside this repository: the official UCP
 * 2026-04-08 schemas (with the discovery profile schema), the 2026-08-25 schemas (with
 * profile.json and the service documents) and the seed documents. It is
 * resolved here, in Node, and served to tests as the virtual module `virtual:ucp-material`,
 * because `import.meta.glob` patterns are static and cannot follow a variable.
 *
 *   UCP_SPEC_DIR   a checkout of the UCP specification repository at tag v2026-04-08
 *                  (source/schemas/**, source/discovery/profile_schema.json), or a folder
 *                  laid out like ../shared/ucp (2026-04-08/schemas/**, 2026-04-08/discovery/…);
 *                  default ../shared/ucp beside the repository.
 *                  The 2026-08-25 material is its sibling 2026-08-25/ (schemas/**, services/**):
 *                  a ../shared/ucp-like folder has both; a spec checkout at v2026-04-08 does not.
 *   UCP_SEEDS_DIR  the seed documents (000_*.txt …); default the `seeds` folder beside a
 *                  ../shared/ucp-like UCP_SPEC_DIR, else ../shared/seeds.
 *   UCP_SPEC_REQUIRED=1  (CI) missing material fails the run instead of skipping suites.
 *
 * A variable that is set but names the wrong folder is always an error: it is a mistake to
 * fix, not an absence to skip.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vitest/config";

const REPO = path.resolve(import.meta.dirname, "../..");
const VERSION = "2026-04-08";
const CURRENT = "2026-08-25";
const MODULE_ID = "virtual:ucp-material";
const RESOLVED_ID = `\0${MODULE_ID}`;
/** The official set has 78 schemas; far fewer means a wrong folder or tag, not the spec. */
const MIN_SCHEMAS = 50;

export interface UcpMaterial {
  readonly schemas: unknown[];
  readonly profileSchema: unknown;
  /** services/shopping/rest.openapi.json (the REST binding), when the spec has it. */
  readonly openapi?: unknown;
  /** The 2026-08-25 schemas (profile.json among them), or none. */
  readonly currentSchemas: unknown[];
  /** 2026-08-25 services/shopping/rest.openapi.json, when present. */
  readonly currentOpenapi?: unknown;
  /** Seed documents by their number: `{ "000": "...", ... }`. */
  readonly seeds: Record<string, string>;
  /** Where each part came from, or why it is missing. */
  readonly specFrom: string;
  readonly seedsFrom: string;
}

/** The variables read here; a plain record, so tests can pass their own. */
type Vars = Readonly<Record<string, string | undefined>>;

class MaterialError extends Error {}

// A walk of our own: readdirSync's `recursive` and `parentPath` postdate Node 20.3 (package.json engines).
function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return jsonFiles(full);
      return e.isFile() && e.name.endsWith(".json") ? [full] : [];
    })
    .sort();
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new MaterialError(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

/** 2026-08-25 beside a ../shared/ucp-like 2026-04-08 folder; a spec checkout at v2026-04-08 has none. */
function loadCurrent(base: string | undefined): Pick<UcpMaterial, "currentSchemas" | "currentOpenapi"> {
  const dir = base ? path.resolve(base, "..", CURRENT) : undefined;
  if (!dir || !existsSync(path.join(dir, "schemas", "profile.json"))) return { currentSchemas: [] };
  const currentSchemas = jsonFiles(path.join(dir, "schemas")).map(readJson);
  if (currentSchemas.length < MIN_SCHEMAS) {
    throw new MaterialError(`${dir}: ${currentSchemas.length} schemas; expected the UCP ${CURRENT} specification`);
  }
  const openapiFile = path.join(dir, "services", "shopping", "rest.openapi.json");
  return { currentSchemas, ...(existsSync(openapiFile) ? { currentOpenapi: readJson(openapiFile) } : {}) };
}

function loadSpec(
  env: Vars,
  repo: string,
): Pick<UcpMaterial, "schemas" | "profileSchema" | "openapi" | "specFrom" | "currentSchemas" | "currentOpenapi"> {
  const named = env.UCP_SPEC_DIR;
  const root = named ? path.resolve(named) : path.resolve(repo, "../shared/ucp");
  const layouts = [path.join(root, "source"), path.join(root, VERSION)];
  const base = layouts.find((dir) => existsSync(path.join(dir, "schemas")));
  if (!base) {
    if (named) {
      throw new MaterialError(
        `UCP_SPEC_DIR=${named}: found neither ${layouts[0]}/schemas (a UCP specification checkout) nor ${layouts[1]}/schemas (a folder like ../shared/ucp)`,
      );
    }
    return {
      schemas: [],
      profileSchema: undefined,
      currentSchemas: [],
      specFrom: `not found (UCP_SPEC_DIR unset, no ${root})`,
    };
  }
  const schemas = jsonFiles(path.join(base, "schemas")).map(readJson);
  const profileFile = path.join(base, "discovery", "profile_schema.json");
  if (schemas.length < MIN_SCHEMAS || !existsSync(profileFile)) {
    throw new MaterialError(
      `${base}: ${schemas.length} schemas${existsSync(profileFile) ? "" : ` and no ${profileFile}`}; expected the UCP ${VERSION} specification (tag v${VERSION})`,
    );
  }
  const openapiFile = path.join(base, "services", "shopping", "rest.openapi.json");
  const openapi = existsSync(openapiFile) ? readJson(openapiFile) : undefined;
  return { schemas, profileSchema: readJson(profileFile), openapi, specFrom: base, ...loadCurrent(base) };
}

function loadSeeds(env: Vars, repo: string): Pick<UcpMaterial, "seeds" | "seedsFrom"> {
  const named = env.UCP_SEEDS_DIR;
  const candidates = named
    ? [path.resolve(named)]
    : [
        // A ../shared/ucp-like UCP_SPEC_DIR keeps its seeds beside it, as ../shared does.
        ...(env.UCP_SPEC_DIR ? [path.resolve(env.UCP_SPEC_DIR, "../seeds")] : []),
        path.resolve(repo, "../shared/seeds"),
      ];
  const dir = candidates.find((d) => existsSync(d));
  if (!dir) {
    if (named) throw new MaterialError(`UCP_SEEDS_DIR=${named}: no such folder`);
    return { seeds: {}, seedsFrom: `not found (UCP_SEEDS_DIR unset, no ${candidates.join(" or ")})` };
  }
  const seeds: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const number = /^(\d{3})_.*\.txt$/.exec(name)?.[1];
    if (number) seeds[number] = readFileSync(path.join(dir, name), "utf8");
  }
  if (named && Object.keys(seeds).length === 0) {
    throw new MaterialError(`UCP_SEEDS_DIR=${named}: no seed documents (NNN_*.txt) in it`);
  }
  return { seeds, seedsFrom: dir };
}

/** `repo` is where ../shared is looked for (this repository; tests pass another). */
export function loadUcpMaterial(env: Vars = process.env, repo = REPO): UcpMaterial {
  return { ...loadSpec(env, repo), ...loadSeeds(env, repo) };
}

/** The one line a run prints when suites were skipped, or undefined when nothing is missing. */
export function skippedNotice(material: UcpMaterial): string | undefined {
  const missing = [
    ...(material.schemas.length === 0 ? ["official UCP schema checks"] : []),
    ...(material.schemas.length > 0 && material.currentSchemas.length === 0 ? [`UCP ${CURRENT} schema checks`] : []),
    ...(Object.keys(material.seeds).length === 0 ? ["seed suites (test/seeds)"] : []),
  ];
  if (missing.length === 0) return undefined;
  return `Skipped ${missing.join(" and ")}: no UCP spec material beside the repository. To run them, set UCP_SPEC_DIR to a checkout of the UCP specification at tag v${VERSION} (or a folder like ../shared/ucp) and UCP_SEEDS_DIR to the seed documents; see README "Tests".`;
}

let announced = false;

/**
 * Serves `virtual:ucp-material`. Missing material skips suites with one notice per run
 * (written to UCP_NOTICE_FILE when test/run-projects.mjs collects the projects' notices
 * into one line); with UCP_SPEC_REQUIRED set, missing material stops the run.
 */
export function ucpMaterial(env: Vars = process.env, repo = REPO): Plugin {
  let material: UcpMaterial | undefined;
  const load = (): UcpMaterial => {
    if (material) return material;
    try {
      material = loadUcpMaterial(env, repo);
    } catch (e) {
      if (e instanceof MaterialError) throw new Error(`UCP spec material: ${e.message}`);
      throw e;
    }
    return material;
  };
  return {
    name: "ucp-material",
    configResolved() {
      const found = load();
      const notice = skippedNotice(found);
      if (!notice) return;
      if (env.UCP_SPEC_REQUIRED) {
        const missing = [
          ...(found.schemas.length === 0 ? [`the official schemas (${found.specFrom})`] : []),
          ...(found.currentSchemas.length === 0 ? [`the ${CURRENT} schemas (beside ${found.specFrom})`] : []),
          ...(Object.keys(found.seeds).length === 0 ? [`the seed documents (${found.seedsFrom})`] : []),
        ];
        throw new Error(
          `UCP_SPEC_REQUIRED is set, so nothing may be skipped, but ${missing.join(" and ")} are missing. Set UCP_SPEC_DIR and UCP_SEEDS_DIR (README "Tests").`,
        );
      }
      if (announced) return;
      announced = true;
      if (env.UCP_NOTICE_FILE) appendFileSync(env.UCP_NOTICE_FILE, `${notice}\n`);
      else console.warn(notice);
    },
    resolveId(id) {
      return id === MODULE_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { schemas, profileSchema, openapi, seeds, currentSchemas, currentOpenapi } = load();
      return [
        `export const currentSchemas = ${JSON.stringify(currentSchemas)};`,
        `export const currentOpenapi = ${JSON.stringify(currentOpenapi ?? null)};`,
        `export const schemas = ${JSON.stringify(schemas)};`,
        `export const profileSchema = ${JSON.stringify(profileSchema ?? null)};`,
        `export const openapi = ${JSON.stringify(openapi ?? null)};`,
        `export const seeds = ${JSON.stringify(seeds)};`,
      ].join("\n");
    },
  };
}
