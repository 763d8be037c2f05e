import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The project folder, found upwards from this module's: scripts/run.mjs bundles a script and
 * sets every module's import.meta.dirname to the entry's folder, which may be bench/ or
 * bench/purchase/.
 */
export function projectRoot(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "ucp-worker")
      return dir;
    if (path.dirname(dir) === dir) throw new Error("not inside the ucp-worker project");
  }
}
