/**
 * How many SQLite-backed objects local workerd keeps open, and where it stops:
 *
 *   OPEN_OBJECTS_RATE=200 OPEN_OBJECTS_SECONDS=50 node scripts/run.mjs bench/open-objects.ts
 *
 * Makes OPEN_OBJECTS_RATE brand-new objects per second (each creates a table), open loop, and
 * every 5 s prints how many were asked for, how many failed and workerd's open file
 * descriptors (three per open database: file, WAL, shared memory). An idle object is evicted
 * after ~10 s, so the open count settles at rate × 10 s. Past ~3,400 open databases (~10,250
 * descriptors, far below the process's limit) workerd answers new objects with SQLITE_NOMEM:
 * its SQLite has a process-wide hard heap limit of 512 MiB, ~150 KiB per open database here
 * (docs/benchmarks.md, "How many objects local workerd keeps open"). Miniflare's storage goes
 * where bench/server.ts puts it (tmpfs when there is one).
 */
import { readdirSync } from "node:fs";
import { workerdPids } from "./cpu";
import { benchStorageDir, probeMiniflare } from "./server";

const SCRIPT = `import { DurableObject } from "cloudflare:workers";
export class Probe extends DurableObject {
  touch() { this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (k TEXT)"); return 1; }
}
export default {
  async fetch(request, env) {
    return new Response(String(await env.PROBE.get(env.PROBE.newUniqueId()).touch()));
  },
};`;

const rate = Number(process.env.OPEN_OBJECTS_RATE ?? 200);
const seconds = Number(process.env.OPEN_OBJECTS_SECONDS ?? 50);
const port = Number(process.env.OPEN_OBJECTS_PORT ?? 10041);

const dir = benchStorageDir();
const mf = probeMiniflare(dir, port, SCRIPT);
const origin = (await mf.ready).origin;
const pid = workerdPids()[0];
const fds = () => (pid ? readdirSync(`/proc/${pid}/fd`).length : Number.NaN);

console.log(`${rate} new objects/s for ${seconds} s, storage in ${dir ?? "the OS temp dir"}`);
const started = Date.now();
let sent = 0;
let failed = 0;
const report = setInterval(() => {
  const at = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`${at.padStart(3)} s  asked ${sent}  failed ${failed}  workerd fds ${fds()}`);
}, 5000);
while (Date.now() - started < seconds * 1000) {
  const due = Math.floor(((Date.now() - started) / 1000) * rate);
  for (; sent < due; sent++) {
    fetch(origin)
      .then((r) => r.text())
      .then(
        (body) => {
          if (body !== "1") failed++;
        },
        () => failed++,
      );
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
clearInterval(report);
await new Promise((resolve) => setTimeout(resolve, 2000));
console.log(`done: asked ${sent}, failed ${failed}`);
await mf.dispose();
