/**
 * The CATALOG_DB database as the loader writes its search tables (src/catalog/search-tables.ts).
 * Local state through Miniflare, where `wrangler dev` keeps it (.wrangler/state/v3/d1, or
 * --persist-to); the deployed database through `wrangler d1 execute --remote --file`, the JSON
 * values inlined as SQL strings (a remote statement holds at most 100 KB, so batches are small).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Miniflare } from "miniflare";
import type { SearchStore } from "../../src/catalog/catalog-load";
import { SEARCH_BATCH } from "../../src/catalog/search-tables";
import { CliError } from "./cli-error";
import { type KvTarget, wranglerBin } from "./kv-writer";
import { readWranglerConfig } from "./wrangler-config";

export const D1_BINDING = "CATALOG_DB";
/** Products per remote insert: their JSON stays under the 100 KB a remote statement may hold. */
const REMOTE_ROWS = 60;

export interface OpenSearchStore extends SearchStore {
  close(): Promise<void>;
}

function database(root: string, target: Omit<KvTarget, "remote">) {
  const config = readWranglerConfig(path.join(root, "wrangler.toml"), target.env);
  const db = config.d1_databases.find((d) => d.binding === D1_BINDING);
  if (!db?.database_id) {
    const where = target.env ? ` [env.${target.env}]` : "";
    throw new CliError(
      `wrangler.toml${where} has no ${D1_BINDING} D1 database (see [[d1_databases]] in wrangler.toml)`,
    );
  }
  return db as { database_id: string; database_name?: string };
}

export async function openSearchStore(root: string, target: KvTarget): Promise<OpenSearchStore> {
  const db = database(root, target);
  return target.remote
    ? remoteStore(root, target, db.database_name ?? D1_BINDING)
    : localStore(root, target, db.database_id);
}

/** The local database through Miniflare (the tests read it back the same way). */
export async function openLocalDatabase(root: string, target: Omit<KvTarget, "remote">) {
  const { database_id } = database(root, target);
  const persist = target.persistTo ? path.resolve(target.persistTo) : path.join(root, ".wrangler", "state");
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    defaultPersistRoot: path.join(persist, "v3"),
    d1Databases: { DB: database_id },
  });
  return { db: (await mf.getD1Database("DB")) as unknown as D1Database, dispose: () => mf.dispose() };
}

async function localStore(root: string, target: KvTarget, _id: string): Promise<OpenSearchStore> {
  const { db, dispose } = await openLocalDatabase(root, target);
  return {
    rowsPerBatch: SEARCH_BATCH,
    batch: async (statements) => {
      await db.batch(
        statements.map((s) =>
          s.param === undefined ? db.prepare(s.statement) : db.prepare(s.statement).bind(s.param),
        ),
      );
    },
    close: dispose,
  };
}

function remoteStore(root: string, target: KvTarget, name: string): OpenSearchStore {
  const dir = mkdtempSync(path.join(tmpdir(), "ucp-d1-"));
  const file = path.join(dir, "batch.sql");
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  return {
    rowsPerBatch: REMOTE_ROWS,
    batch: async (statements) => {
      const sql = statements.map(
        (s) => `${s.param === undefined ? s.statement : s.statement.replace(/\?1/g, quote(s.param))};`,
      );
      writeFileSync(file, sql.join("\n"));
      const args = [
        "d1",
        "execute",
        name,
        "--remote",
        "--yes",
        "--file",
        file,
        ...(target.env ? ["--env", target.env] : []),
      ];
      const result = spawnSync(wranglerBin(root), args, {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
        encoding: "utf8",
      });
      if (result.status !== 0) {
        const detail = (result.stderr || result.stdout || "").trim().split("\n").slice(-3).join(" ");
        throw new CliError(`wrangler d1 execute failed: ${detail}`);
      }
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
