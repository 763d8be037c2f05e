/**
 * The UCP Node reference server (Universal-Commerce-Protocol/samples, rest/nodejs: Hono +
 * better-sqlite3) as the purchase benchmark's anchor. Found through UCP_SAMPLES_DIR (a
 * checkout, or a bare clone), installed once into a scratch folder outside this project
 * (`npm ci` there), with one fix: its per-request logger is built once, not inside the
 * handler (which otherwise starts a logging thread per request and caps it at about
 * 2 journeys/s). Each run starts it on a fresh copy of its two databases.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Running, removeState, spawnGroup, stopGroup, waitReady } from "./stores";

export const SAMPLES_HINT =
  "git clone https://github.com/Universal-Commerce-Protocol/samples and set UCP_SAMPLES_DIR to that checkout";

const SUB = "rest/nodejs";

/** The per-request logger as the sample has it (src/index.ts), and the same logger built once. */
const LOGGER_INSIDE = `  await new Promise<void>((resolve) =>
    pinoHttp({
      quietReqLogger: true,
      transport: {
        target: 'pino-http-print',
        options: {
          destination: 1,
          all: true,
          translateTime: true,
        },
      },
    })(c.env.incoming, c.env.outgoing, () => resolve()),
  );`;
const LOGGER_CALL = `  await new Promise<void>((resolve) =>
    httpLogger(c.env.incoming, c.env.outgoing, () => resolve()),
  );`;
const LOGGER_HOISTED = `// Setup logging for each request
const httpLogger = pinoHttp({
  quietReqLogger: true,
  transport: {
    target: 'pino-http-print',
    options: {
      destination: 1,
      all: true,
      translateTime: true,
    },
  },
});
`;

/** The sample's source with the logger hoisted and the port from PORT (it listens on 3000 otherwise). */
export function patchReference(source: string): string {
  if (!source.includes(LOGGER_INSIDE) || !source.includes("// Setup logging for each request\n"))
    throw new Error(`${SUB}/src/index.ts changed: the per-request logger to hoist was not found`);
  if (!source.includes("port: 3000,")) throw new Error(`${SUB}/src/index.ts changed: no "port: 3000,"`);
  return source
    .replace(LOGGER_INSIDE, LOGGER_CALL)
    .replace("// Setup logging for each request\n", LOGGER_HOISTED)
    .replace("port: 3000,", "port: Number(process.env.PORT ?? 3000),");
}

/** UCP_SAMPLES_DIR's rest/nodejs files (from a checkout, or HEAD of a bare clone), or why not. */
function sampleFiles(dir: string, into: string): void {
  if (existsSync(path.join(dir, SUB, "package.json"))) {
    cpSync(path.join(dir, SUB), into, { recursive: true, filter: (src) => !src.includes("node_modules") });
    return;
  }
  // A bare clone or mirror: the committed tree.
  const tar = execFileSync("git", ["--git-dir", dir, "archive", "HEAD", SUB], { maxBuffer: 256 * 1024 * 1024 });
  mkdirSync(into, { recursive: true });
  execFileSync("tar", ["-x", "-C", into, "--strip-components=2"], { input: tar });
}

export interface Reference {
  /** The installed sample (scratch folder, outside the project). */
  readonly dir: string;
  readonly commit: string;
}

/**
 * The installed reference, or a sentence saying why there is none. Installs on first use
 * (about 3 minutes: better-sqlite3 builds); later runs reuse the folder, keyed by commit.
 */
export function prepareReference(log: (message: string) => void): Reference | string {
  const dir = process.env.UCP_SAMPLES_DIR;
  if (!dir) return `UCP_SAMPLES_DIR is not set (${SAMPLES_HINT})`;
  let commit = "unknown";
  try {
    const gitDir = existsSync(path.join(dir, ".git")) ? path.join(dir, ".git") : dir;
    commit = execFileSync("git", ["--git-dir", gitDir, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    if (!existsSync(path.join(dir, SUB, "package.json"))) return `${dir} holds no ${SUB} (${SAMPLES_HINT})`;
  }
  const key = createHash("sha256")
    .update(`${path.resolve(dir)}\n${commit}`)
    .digest("hex")
    .slice(0, 12);
  const scratch = path.join(process.env.BENCH_SCRATCH_DIR ?? tmpdir(), `ucp-reference-${key}`);
  if (existsSync(path.join(scratch, ".installed"))) return { dir: scratch, commit };
  log(`installing the reference server into ${scratch} (npm ci; once per samples commit)`);
  rmSync(scratch, { recursive: true, force: true });
  try {
    sampleFiles(dir, scratch);
  } catch (e) {
    return `${dir} holds no ${SUB} (${e instanceof Error ? e.message.split("\n")[0] : e}; ${SAMPLES_HINT})`;
  }
  const index = path.join(scratch, "src", "index.ts");
  try {
    writeFileSync(index, patchReference(readFileSync(index, "utf8")));
  } catch (e) {
    return `samples ${commit.slice(0, 7)}: ${e instanceof Error ? e.message : e}`;
  }
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: scratch, stdio: "ignore", timeout: 900_000 });
  writeFileSync(path.join(scratch, ".installed"), `${commit}\n`);
  return { dir: scratch, commit };
}

/** Units per product in a fresh run (the sample ships 500–2,000, a few seconds of journeys). */
const UNITS = 1_000_000_000;

/** The sample on a fresh copy of its databases under `parent`, on `port`. */
export async function startReference(
  ref: Reference,
  parent: string,
  port: number,
): Promise<Running & { state: string }> {
  const state = mkdtempSync(path.join(parent, "ucp-bench29-reference-"));
  mkdirSync(path.join(state, "databases"));
  for (const db of ["products.db", "transactions.db"])
    cpSync(path.join(ref.dir, "databases", db), path.join(state, "databases", db));
  execFileSync(
    process.execPath,
    [
      "-e",
      `const D = require("better-sqlite3"); const db = new D(process.argv[1]); db.prepare("UPDATE inventory SET quantity = ?").run(${UNITS}); db.close();`,
      path.join(state, "databases", "transactions.db"),
    ],
    { cwd: ref.dir },
  );
  // Run as its `npm run dev` does (tsx), without watch: its `npm start` build (plain tsc)
  // leaves extensionless ESM imports Node cannot resolve.
  const { child, log } = spawnGroup(
    [
      "--import",
      path.join(ref.dir, "node_modules", "tsx", "dist", "esm", "index.mjs"),
      path.join(ref.dir, "src", "index.ts"),
    ],
    { PORT: String(port) },
    `${state}.log`,
    state,
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(child, `${origin}/.well-known/ucp`, 60_000, log);
  return {
    origin,
    group: child.pid as number,
    state,
    stop: async () => {
      await stopGroup(child);
      removeState(state);
    },
  };
}
