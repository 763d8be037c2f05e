/**
 * Catalog loads as background jobs (issue 26 item 3), in workerd with the real R2 bucket, KV
 * and the CatalogLoadObject's alarms (they fire by themselves; the tests watch and, through
 * the object's KV, hold or fail its writes): a file sent in parts loads with its progress
 * shown; a 2,000-product file with 10 bad rows is refused with all 10 named and nothing
 * written; a load whose writes fail pauses, resumes from its cursor and writes nothing twice,
 * or is discarded; while a load writes, readers get the old catalog, then the new one whole;
 * the console's list searches by title, SKU and variant id; R2 holds no part beyond the file's
 * size, nor the parts of a load forgotten before it started.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_PARTS, UPLOAD_PART_BYTES, uploadPartKey } from "../../src/catalog/catalog-job";
import { KV_KEYS } from "../../src/catalog/kv-layout";
import {
  controlKv,
  leanCatalogCsv,
  loadStatus,
  noDelays,
  realKv,
  runLoad,
  uploadForm,
  uploadInParts,
} from "../helpers/catalog-load";
import { type Browser, csrfOf, formFor, ORIGIN, openPage, postForm, signIn } from "../helpers/console";
import { callTool } from "../helpers/mcp";
import { decodeEntities } from "../helpers/pages";

const browser: Browser = { ip: "10.26.3.1" };
vi.setConfig({ testTimeout: 120_000 });

async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const productPuts = (puts: readonly string[]) => puts.filter((k) => k.includes(":product:")).length;

async function found(query: string): Promise<string[]> {
  const reply = await callTool("search_catalog", { catalog: { query } });
  return ((reply.body.result.structuredContent.products ?? []) as Array<{ id: string }>).map((p) => p.id);
}

async function lookup(ids: string[]): Promise<string[]> {
  const reply = await callTool("lookup_catalog", { catalog: { ids } });
  return ((reply.body.result.structuredContent.products ?? []) as Array<{ id: string }>).map((p) => p.id);
}

/** Rows in a load's D1 search documents table; undefined when it has none (never written, or dropped). */
async function searchRowsOf(key: string): Promise<number | undefined> {
  const table = `s_${key}_doc`;
  const exists = await env.CATALOG_DB.prepare("SELECT 1 AS hit FROM sqlite_master WHERE name = ?").bind(table).first();
  if (!exists) return undefined;
  return (await env.CATALOG_DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n;
}

/** Every key of the namespace (the test's KV is small enough to list). */
async function allKeys(prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.CATALOG.list({ prefix, ...(cursor ? { cursor } : {}) });
    keys.push(...page.keys.map((k) => k.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

beforeAll(async () => {
  await signIn(browser);
  await noDelays();
});

describe("a load sent in parts", () => {
  it("checks, writes, switches and cleans: the page shows the progress, then the new catalog is served", async () => {
    const kv = await controlKv();
    kv.holdAfter = 500;
    const { id, page } = await uploadInParts(browser, "lean.csv", leanCatalogCsv(1_200));
    await until(() => productPuts(kv.puts) === 500);
    let view = await openPage(page, browser);
    expect(view.res.status).toBe(200);
    expect(decodeEntities(view.html)).toMatch(/All 1,200 products \(1,200 variants\) are valid\. Written 500 of 1,200/);
    expect(view.html).toMatch(/<noscript><meta http-equiv="refresh" content="2"><\/noscript>/);
    expect(view.html).toMatch(/<progress max="1200" value="500"/);
    expect(await lookup(["prod_n7"]), "not served before the switch").toEqual([]);
    kv.release();
    const done = await runLoad(id);
    expect(done?.phase).toBe("done");
    expect(await lookup(["prod_n7"])).toEqual(["prod_n7"]);
    // The demo catalog the test store starts with: its 68 products' unprefixed keys are gone.
    expect(done?.removed).toBe(68);
    expect(await allKeys("product:")).toEqual([]);
    view = await openPage(page, browser);
    expect(decodeEntities(view.html)).toMatch(/Loaded 1,200 products/);
    expect(view.html).not.toMatch(/http-equiv="refresh"/);
    expect((await env.CATALOG_UPLOADS.list({ prefix: `uploads/${id}/` })).objects).toEqual([]);
    await realKv();
  });
});

describe("a file with bad rows", () => {
  it("2,000 products with 10 bad rows: refused with every row named, nothing written or served", async () => {
    const lines = leanCatalogCsv(2_000, 5_000).split("\n");
    const bad = [3, 150, 401, 777, 1_000, 1_234, 1_500, 1_789, 1_950, 2_000];
    for (const row of bad) lines[row] = (lines[row] ?? "").replace(",USD,", ",US$,");
    const before = await allKeys();
    const manifest = await env.CATALOG.get(KV_KEYS.manifest);
    const res = await uploadForm(browser, "bad-rows.csv", lines.join("\n"));
    expect(res.status).toBe(303);
    const page = res.headers.get("location") ?? "";
    const id = page.split("/").pop() ?? "";
    expect((await runLoad(id))?.phase).toBe("refused");
    const view = await openPage(page, browser);
    expect(view.res.status).toBe(422);
    const text = decodeEntities(view.html);
    expect(text).toMatch(/bad-rows\.csv: 10 problems; nothing was written/);
    for (const row of bad) {
      const n = 5_000 + row - 1;
      expect(text).toContain(`line ${row + 1} (var_n${n}): currency must be a 3-letter ISO 4217 code, got "US$"`);
    }
    expect(await allKeys()).toEqual(before);
    expect(await env.CATALOG.get(KV_KEYS.manifest)).toBe(manifest);
    expect(await lookup(["prod_n5002"])).toEqual([]);
  });
});

describe("a load whose writes fail", () => {
  it("retries, pauses, and resumes from its cursor: no document written twice", async () => {
    const kv = await controlKv();
    kv.holdAfter = 500;
    const { id, page } = await uploadInParts(browser, "resume.csv", leanCatalogCsv(1_600, 10_000));
    await until(() => productPuts(kv.puts) === 500);
    kv.failing = true;
    kv.release();
    const paused = await runLoad(id);
    expect(paused?.paused).toBe(true);
    expect(paused?.written).toBe(500);
    expect(paused?.error).toMatch(/injected/);
    const { html } = await openPage(page, browser);
    expect(html).toMatch(/Paused: a step failed three times/);
    expect(await lookup(["prod_n10001"]), "nothing of it is served while paused").toEqual([]);
    kv.failing = false;
    const resumed = await postForm(html, `${page}/resume`, {}, browser);
    expect(resumed.status).toBe(303);
    expect((await runLoad(id))?.phase).toBe("done");
    expect(productPuts(kv.puts)).toBe(1_600);
    expect(new Set(kv.puts).size).toBe(kv.puts.length);
    expect(await lookup(["prod_n10001", "prod_n11599"])).toEqual(["prod_n10001", "prod_n11599"]);
    await realKv();
  });

  it("a paused load can be discarded: what it wrote goes, the old catalog stays", async () => {
    const before = await lookup(["prod_n10001"]);
    const kv = await controlKv();
    kv.holdAfter = 500;
    const { id, page } = await uploadInParts(browser, "discard.csv", leanCatalogCsv(700, 20_000));
    await until(() => productPuts(kv.puts) === 500);
    kv.failing = true;
    kv.release();
    expect((await runLoad(id))?.paused).toBe(true);
    await realKv();
    const { html } = await openPage(page, browser);
    expect((await postForm(html, `${page}/discard`, {}, browser)).status).toBe(303);
    expect((await runLoad(id, ["discarded"]))?.phase).toBe("discarded");
    expect(await allKeys(`load:${id}:`)).toEqual([]);
    expect(await searchRowsOf(id)).toBeUndefined();
    expect(await lookup(["prod_n10001"])).toEqual(before);
  });
});

describe("the switch", () => {
  it("while a load writes, readers see the old catalog whole; after the switch, the new one", async () => {
    const kv = await controlKv();
    kv.holdAfter = 1_000;
    const { id } = await uploadInParts(browser, "next.csv", leanCatalogCsv(1_100, 30_000));
    await until(() => productPuts(kv.puts) === 1_000);
    expect((await loadStatus(id))?.written).toBe(1_000);
    expect(await lookup(["prod_n10001", "prod_n30001"]), "old served, new not").toEqual(["prod_n10001"]);
    expect(await found("Ridge")).not.toContain("prod_n30001");
    expect(await found("30001"), "its search rows are written, not served").toEqual([]);
    expect(await searchRowsOf(id)).toBe(1_000);
    const replaced = (await env.CATALOG.get<{ search?: string }>("catalog:manifest", "json"))?.search;
    kv.release();
    expect((await runLoad(id))?.phase).toBe("done");
    expect(await lookup(["prod_n10001", "prod_n30001"])).toEqual(["prod_n30001"]);
    // Search switched with the documents, and the replaced load's search tables were dropped.
    expect(await found("30001")).toEqual(["prod_n30001"]);
    expect(await searchRowsOf(id)).toBe(1_100);
    if (replaced) expect(await searchRowsOf(replaced)).toBeUndefined();
    const left = await allKeys("load:");
    expect(left.every((k) => k.startsWith(`load:${id}:`))).toBe(true);
    expect(left.length).toBe(1_100 + 2); // documents, one index part, the stock map
    await realKv();
  });

  it("one load at a time: a second upload while one writes is refused with a link to it", async () => {
    const kv = await controlKv();
    kv.holdAfter = 100;
    const first = await uploadInParts(browser, "one.csv", leanCatalogCsv(600, 40_000));
    await until(() => productPuts(kv.puts) === 100);
    const second = await uploadForm(browser, "two.csv", leanCatalogCsv(10, 50_000));
    expect(second.status).toBe(409);
    expect(await second.text()).toContain(`href="${first.page}"`);
    kv.release();
    expect((await runLoad(first.id))?.phase).toBe("done");
    await realKv();
  });
});

describe("the console's catalog list", () => {
  it("searches by title, SKU and variant id, server-side and paged", async () => {
    let { html } = await openPage("/admin/catalog?q=SKU-40123", browser);
    expect(decodeEntities(html)).toMatch(/1 of 600 products match/);
    expect(html).toContain('id="v-var_n40123"');
    ({ html } = await openPage("/admin/catalog?q=var_n40007", browser));
    expect(html).toContain('id="v-var_n40007"');
    // Titles cycle through 8 adjectives and 9 nouns: "Alpine Mug" is every 72nd product.
    ({ html } = await openPage("/admin/catalog?q=alpine+mug", browser));
    const text = decodeEntities(html);
    const matches = Number(/(\d+) of 600 products match/.exec(text)?.[1]);
    expect(matches).toBeGreaterThan(5);
    expect(text).toMatch(/Alpine Mug 400\d\d/);
    ({ html } = await openPage("/admin/catalog?q=SKU-401&page=2", browser));
    expect(decodeEntities(html)).toMatch(/Page 2 of \d+/);
    expect(html).toContain("q=SKU-401&amp;page=1");
    ({ html } = await openPage("/admin/catalog?q=%3Cscript%3E", browser));
    expect(html).toContain("No product matches “&lt;script&gt;”");
    expect(formFor(html, "/admin/catalog/upload")).toBeTruthy();
  });
});

describe("an upload's parts in R2", () => {
  async function created(bytes: number): Promise<{ id: string; page: string; parts: number; send: SendPart }> {
    const { html } = await openPage("/admin/catalog", browser);
    const csrf = csrfOf(html);
    const headers = { origin: ORIGIN, cookie: browser.cookie ?? "", "cf-connecting-ip": browser.ip ?? "" };
    const form = new FormData();
    form.set("_csrf", csrf);
    form.set("file_name", "parts.csv");
    form.set("file_size", String(bytes));
    const res = await exports.default.fetch(`${ORIGIN}/admin/catalog/loads`, { method: "POST", headers, body: form });
    expect(res.status).toBe(201);
    const load = (await res.json()) as { id: string; page: string; parts: number };
    const send: SendPart = (part) =>
      exports.default.fetch(`${ORIGIN}${load.page}/parts/${part}`, {
        method: "POST",
        headers: { ...headers, "x-console-csrf": csrf, "content-length": "4" },
        body: "a,b\n",
      });
    return { ...load, send };
  }
  const stored = async (id: string) =>
    (await env.CATALOG_UPLOADS.list({ prefix: `uploads/${id}/` })).objects.map((o) => o.key);

  it("a part beyond the file's size is refused (4xx) and never stored", async () => {
    const load = await created(UPLOAD_PART_BYTES + 1);
    expect(load.parts).toBe(2);
    expect((await load.send(1)).status).toBe(200);
    const beyond = await load.send(2);
    expect(beyond.status).toBe(404);
    expect(((await beyond.json()) as { message: string }).message).toMatch(/2 parts/);
    expect((await load.send(MAX_PARTS - 1)).status).toBe(404);
    expect(await stored(load.id)).toEqual([uploadPartKey(load.id, 1)]);
  });

  it("an upload never started is forgotten with its parts", async () => {
    const load = await created(10);
    expect((await load.send(0)).status).toBe(200);
    expect(await stored(load.id)).toHaveLength(1);
    // The object keeps the 20 newest loads; older finished or never started ones are forgotten.
    for (let i = 0; i < 20; i++) await created(10);
    expect(await loadStatus(load.id)).toBeNull();
    expect(await stored(load.id)).toEqual([]);
  });
});

type SendPart = (part: number) => Promise<Response>;
