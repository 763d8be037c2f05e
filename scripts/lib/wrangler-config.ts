/** wrangler.toml [vars] from disk (see toml-vars.ts for the reading rules). */
import { readFileSync } from "node:fs";
import { parseVars } from "./toml-vars";

export function readVars(tomlPath: string, env?: string): Record<string, string> {
  return parseVars(readFileSync(tomlPath, "utf8"), env);
}
