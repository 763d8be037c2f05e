/**
 * The CATALOG namespace as the loader writes it. Local state is written through Miniflare,
 * exactly where `wrangler kv --local` and `wrangler dev` keep it (wrangler's local bulk put
 * is one sequential put per key: 20,000 products took minutes); the deployed namespace
 * through `wrangler kv bulk put/delete --remote`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import type { KvPair } from "../../src/catalog/merchant-catalog";
import { CliError } from "./cli-error";
import { readWranglerConfig } from "./wrangler-config";

export interface KvTarget {
  readonly remote: boolean;
  readonly env?: string;
  /** Local state folder, as `wrangler dev --persist-to` (default .wrangler/state). */
  readonly persistTo?: string;
}

export interface KvStore {
  put(pairs: readonly KvPair[]): Promise<void>;
  /** Every key that starts with prefix. */
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
  get(key: string): Promise<string | null>;
  close(): Promise<void>;
}

export const BINDING = "CATALOG";
/** Keys in flight at once against local state: enough to keep workerd busy, no more. */
const LOCAL_CONCURRENCY = 64;

export function wranglerBin(root: string): string {
  return path.join(root, "node_modules", ".bin", "wrangler");
}

export async function openKvStore(root: string, target: KvTarget): Promise<KvStore> {
  return target.remote ? remoteStore(root, target) : localStore(root, target);
}

/** The local CATALOG namespace through Miniflare, where `wrangler dev` reads it. */
export async function openLocalNamespace(root: string, target: Omit<KvTarget, "remote">) {
  const config = readWranglerConfig(path.join(root, "wrangler.toml"), target.env);
  const namespace = config.kv_namespaces.find((ns) => ns.binding === BINDING);
  if (!namespace?.id) throw new CliError(`wrangler.toml${envLabel(target)} has no ${BINDING} KV namespace`);
  const persist = target.persistTo ? path.resolve(target.persistTo) : path.join(root, ".wrangler", "state");
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    defaultPersistRoot: path.join(persist, "v3"),
    kvNamespaces: { NAMESPACE: namespace.id },
  });
  return { kv: await mf.getKVNamespace("NAMESPACE"), dispose: () => mf.dispose() };
}

async function localStore(root: string, target: KvTarget): Promise<KvStore> {
  const { kv, dispose } = await openLocalNamespace(root, target);
  return {
    put: (pairs) => pool(pairs, (p) => kv.put(p.key, p.value)),
    list: async (prefix) => {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await kv.list({ prefix, ...(cursor ? { cursor } : {}) });
        for (const key of page.keys) keys.push(key.name);
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return keys;
    },
    delete: (keys) => pool(keys, (key) => kv.delete(key)),
    get: (key) => kv.get(key),
    close: dispose,
  };
}

async function pool<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(LOCAL_CONCURRENCY, items.length) }, worker));
}

function remoteStore(root: string, target: KvTarget): KvStore {
  const dir = mkdtempSync(path.join(tmpdir(), "ucp-kv-"));
  const run = (args: string[]) => wrangler(root, [...args, "--binding", BINDING, "--remote", ...envArgs(target)]);
  return {
    put: async (pairs) => {
      const file = path.join(dir, "put.json");
      writeFileSync(file, JSON.stringify(pairs));
      run(["kv", "bulk", "put", file]);
    },
    list: async (prefix) => {
      const keys = JSON.parse(run(["kv", "key", "list", "--prefix", prefix])) as Array<{ name: string }>;
      return keys.map((k) => k.name);
    },
    delete: async (keys) => {
      const file = path.join(dir, "delete.json");
      writeFileSync(file, JSON.stringify(keys));
      run(["kv", "bulk", "delete", file, "--force"]);
    },
    get: async (key) => {
      const result = spawnSync(
        wranglerBin(root),
        ["kv", "key", "get", key, "--binding", BINDING, "--remote", ...envArgs(target)],
        {
          cwd: root,
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
          encoding: "utf8",
          maxBuffer: 1 << 30,
        },
      );
      // A missing key is a failed get: the loader treats it as absent.
      return result.status === 0 ? result.stdout : null;
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function wrangler(root: string, args: string[]): string {
  const result = spawnSync(wranglerBin(root), args, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) {
    const detail = (result.stderr || result.stdout || "").trim().split("\n").slice(-3).join(" ");
    throw new CliError(`wrangler ${args.slice(0, 3).join(" ")} failed: ${detail}`);
  }
  return result.stdout;
}

function envArgs(target: KvTarget): string[] {
  return target.env ? ["--env", target.env] : [];
}

function envLabel(target: { env?: string }): string {
  return target.env ? ` [env.${target.env}]` : "";
}
