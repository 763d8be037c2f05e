/**
 * Finds the Chromium the browser tests drive (playwright-core downloads no browser of its
 * own here: CI installs Debian's `chromium` with apt). Read by the vitest config (Node),
 * which skips or fails the project, and by the harness, which launches it.
 *
 *   CHROMIUM_PATH            an executable; set but not executable is an error, not a skip
 *   else `chromium`, `chromium-browser` on PATH
 *   UCP_BROWSER_REQUIRED=1   (CI) no Chromium fails the run instead of skipping the files
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

type Vars = Readonly<Record<string, string | undefined>>;

const NAMES = ["chromium", "chromium-browser"];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Chromium executable, or undefined when none is installed. Throws on a wrong CHROMIUM_PATH. */
export function findChromium(env: Vars = process.env): string | undefined {
  const named = env.CHROMIUM_PATH;
  if (named) {
    if (!executable(named)) throw new Error(`CHROMIUM_PATH=${named}: not an executable file`);
    return named;
  }
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The one line a run prints when the browser files are skipped. */
export const NO_CHROMIUM_NOTICE =
  'Skipped the browser tests (test/browser): no Chromium found (CHROMIUM_PATH unset, no chromium or chromium-browser on PATH). Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH; see README "Tests".';
