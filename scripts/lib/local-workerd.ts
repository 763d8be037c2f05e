/**
 * The local servers' workerd (`npm start`, the purchase bench's bundle server) with SQLite's
 * larger heap: every Durable Object open in the one local process has its own SQLite database,
 * and past ~2,000 of them SQLite's 512 MiB process-wide limit answers SQLITE_NOMEM (our store
 * answers 503). workerd's autogate raises it to 8 GiB; Miniflare has no option for autogates,
 * so Miniflare runs scripts/workerd-autogates, which adds the gate to the config it pipes on.
 * Decision: docs/decisions/operations.md "SQLite heap limit of the local workerd".
 */
import { createRequire } from "node:module";
import path from "node:path";
import { SQLITE_HEAP_GATE } from "./workerd-autogates.mjs";

export { SQLITE_HEAP_GATE };

/** The workerd binary Miniflare would run: MINIFLARE_WORKERD_PATH, else its own `workerd`. */
function realWorkerd(env: NodeJS.ProcessEnv): string {
  if (env.UCP_WORKERD_BIN) return env.UCP_WORKERD_BIN;
  if (env.MINIFLARE_WORKERD_PATH) return env.MINIFLARE_WORKERD_PATH;
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  return fromMiniflare("workerd").default as string;
}

/** UCP_WORKERD_AUTOGATES as set (empty: none, for a before/after run), else the SQLite gate. */
const defaultGates = (env: NodeJS.ProcessEnv) =>
  env.UCP_WORKERD_AUTOGATES === undefined ? [SQLITE_HEAP_GATE] : env.UCP_WORKERD_AUTOGATES.split(",");

/**
 * Points Miniflare (in this process, created after the call) at the wrapper; `gateList` replaces
 * the default gate (the tests add workerd's test gate to observe it from a Worker).
 */
export function useLocalWorkerd(root: string, gateList: readonly string[] = defaultGates(process.env)): void {
  const env = process.env;
  // The wrapper is a bash script; on Windows workerd keeps its default limit.
  if (process.platform === "win32") return;
  const wrapper = path.join(root, "scripts", "workerd-autogates");
  if (env.MINIFLARE_WORKERD_PATH === wrapper) return;
  env.UCP_WORKERD_BIN = realWorkerd(env);
  env.UCP_WORKERD_AUTOGATES = gateList.join(",");
  env.MINIFLARE_WORKERD_PATH = wrapper;
}
