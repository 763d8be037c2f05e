/**
 * node scripts/run.mjs bench/purchase/serve-bundle.ts <bundle.js> <state dir> <port>
 *
 * The deployed bundle on Miniflare, in a process of its own so its CPU and memory are read
 * like every other server's (bench/purchase/proc.ts): wrangler.toml's bindings (Durable
 * Objects, KV, D1, rate limits), .dev.vars over [vars] as `npm start` binds them, state
 * persisted under <state dir>/v3 as `wrangler dev --persist-to` keeps it. Requests go to the
 * Worker's own socket (no Miniflare entry worker, which Cloudflare does not have). Prints
 * `ready <origin>` once serving; stops on SIGTERM. A fourth argument opens the V8 inspector
 * on that port (bench/purchase/profile.ts).
 */
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { devVars } from "../../scripts/lib/dev-launch";
import { useLocalWorkerd } from "../../scripts/lib/local-workerd";
import { projectRoot } from "./root";

const [bundle, state, port, inspectorPort] = process.argv.slice(2);
if (!bundle || !state || !port) throw new Error("usage: serve-bundle.ts <bundle.js> <state dir> <port>");
const root = projectRoot();
const toml = path.join(root, "wrangler.toml");
const origin = `http://127.0.0.1:${port}`;

const { workerOptions } = unstable_getMiniflareWorkerOptions(toml);
// The assets layer serves discovery and static files; the journeys reach only the Worker.
const { assets: _assets, ...options } = workerOptions as typeof workerOptions & { assets?: unknown };
// As `npm start` runs it: SQLite's larger heap for the one workerd's thousands of objects.
useLocalWorkerd(root);
const mf = new Miniflare({
  ...options,
  name: "ucp-worker",
  modules: true,
  scriptPath: bundle,
  modulesRoot: path.dirname(bundle),
  bindings: { ...options.bindings, ...devVars(toml), MERCHANT_ORIGIN: origin },
  defaultPersistRoot: path.join(state, "v3"),
  logRequests: false,
  ...(inspectorPort ? { inspectorPort: Number(inspectorPort) } : {}),
  unsafeDirectSockets: [{ host: "127.0.0.1", port: Number(port) }],
} as ConstructorParameters<typeof Miniflare>[0]);
await mf.ready;
const direct = await mf.unsafeGetDirectURL("ucp-worker");
console.log(`ready ${direct.origin}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void mf.dispose().finally(() => process.exit(0)));
