/**
 * The console's catalog pages (issue 13): an uploaded CSV is checked by the loader's own code
 * (every bad row named by file line and variant id, nothing written), a good one is served to
 * agents at once, and the stock forms change what an agent is offered.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogCsvLines } from "../../bench/catalog-csv";
import { generateCatalog } from "../../bench/generate-catalog";
import demo from "../../data/demo-catalog.json";
import { type Browser, csrfOf, formFor, ORIGIN, openPage, postForm, signIn } from "../helpers/console";
import { callTool } from "../helpers/mcp";
import { decodeEntities } from "../helpers/pages";
import broken from "../node/fixtures/catalog-broken.csv?raw";
import fixed from "../node/fixtures/catalog-fixed.csv?raw";

const browser: Browser = { ip: "10.13.3.1" };

/** The upload form posted as a browser posts it: multipart, the file and `_csrf`. */
async function upload(name: string, text: string, extra: Record<string, string> = {}): Promise<Response> {
  const { html } = await openPage("/admin/catalog", browser);
  const body = new FormData();
  body.set("_csrf", csrfOf(html));
  body.set("catalog", new File([text], name, { type: "text/csv" }));
  for (const [k, v] of Object.entries(extra)) body.set(k, v);
  const request = new Request(`${ORIGIN}/admin/catalog/upload`, { method: "POST", body });
  const bytes = await request.arrayBuffer();
  return exports.default.fetch(`${ORIGIN}/admin/catalog/upload`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": request.headers.get("content-type") ?? "",
      "content-length": String(bytes.byteLength),
      origin: ORIGIN,
      cookie: browser.cookie ?? "",
      "cf-connecting-ip": browser.ip ?? "",
    },
    body: bytes,
  });
}

async function lookup(ids: string[]) {
  const reply = await callTool("lookup_catalog", { catalog: { ids } });
  const products = (reply.body.result.structuredContent.products ?? []) as Array<{
    id: string;
    variants: Array<{ id: string; availability?: { available?: boolean } }>;
  }>;
  return products;
}

/** Search and lookup lay the inventory's sell-outs over the catalog through a 2 s per-isolate cache. */
async function eventually<T>(read: () => Promise<T>, want: T): Promise<T> {
  let value = await read();
  for (let waited = 0; value !== want && waited < 5_000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  await signIn(browser);
});

describe("catalog upload", () => {
  it("a broken CSV: every bad row named by line and variant id, nothing written", async () => {
    const before = await env.CATALOG.list();
    const res = await upload("catalog-broken.csv", broken);
    expect(res.status).toBe(422);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = decodeEntities(await res.text());
    expect(page).toMatch(/5 problems; nothing was written/);
    for (const row of [
      /line 4 \(var_fx_tee_m\): missing value for required column "price"/,
      /line 6 \(var_fx_mug_orange\): currency must be a 3-letter ISO 4217 code, got "US\$"/,
      /line 7 \(var_fx_mug_green\): stock must be a non-negative integer, got "-3"/,
      /line 8 \(var_fx_tee_s\): duplicate variant_id "var_fx_tee_s" \(first used on line 2\)/,
      /line 9: malformed CSV: a double quote inside an unquoted field/,
    ])
      expect(page).toMatch(row);
    expect((await env.CATALOG.list()).keys).toEqual(before.keys);
    expect(await lookup(["prod_fx_tee"])).toEqual([]);
  });

  it("a good CSV is served to agents at once, and a reload drops what the file no longer has", async () => {
    const res = await upload("catalog-fixed.csv", fixed);
    expect(res.status).toBe(303);
    // The test store starts with the demo catalog: the upload replaces all of it.
    expect(res.headers.get("location")).toMatch(/^\/admin\/catalog\?loaded=5&removed=68$/);
    const search = await callTool("search_catalog", { catalog: { query: "Loop Tee" } });
    const found = search.body.result.structuredContent.products as Array<{ id: string }>;
    expect(found.map((p) => p.id)).toContain("prod_fx_tee");
    const { html } = await openPage("/admin/catalog?loaded=5&removed=68", browser);
    expect(html).toMatch(/Loaded 5 products/);
    expect(html).toContain("Camp Mug");
    expect(html).toMatch(/data-stock="var_fx_mug_green">8</);

    const withoutSocks = fixed
      .split("\n")
      .filter((line) => !line.startsWith("prod_fx_socks"))
      .join("\n");
    const again = await upload("catalog-fixed.csv", withoutSocks);
    expect(again.headers.get("location")).toBe("/admin/catalog?loaded=4&removed=1");
    expect(await env.CATALOG.get("product:prod_fx_socks")).toBeNull();
    expect(await lookup(["prod_fx_socks"])).toEqual([]);
  });

  it("a JSON catalog: a bad variant named by product index, id and variant; the good file loads", async () => {
    const bad = structuredClone(demo) as { products: Array<{ id: string; variants: Array<Record<string, unknown>> }> };
    const product = bad.products[2];
    const variant = product?.variants[0] ?? {};
    variant.price = { amount: 100, currency: "EUR" };
    const refused = await upload("catalog.json", JSON.stringify(bad));
    expect(refused.status).toBe(422);
    expect(decodeEntities(await refused.text())).toContain(
      `products[2] (${product?.id}), variant ${variant.id}: $.variants[0].price.currency: expected USD`,
    );
    const loaded = await upload("catalog.json", JSON.stringify(demo));
    expect(loaded.status).toBe(303);
    expect(loaded.headers.get("location")).toMatch(/^\/admin\/catalog\?loaded=68&removed=\d+$/);
  });

  it("refuses a file over the cap with 413, a form without its CSRF token with 403, and a .txt by name", async () => {
    const big = await exports.default.fetch(`${ORIGIN}/admin/catalog/upload`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(6 * 1024 * 1024),
        origin: ORIGIN,
        cookie: browser.cookie ?? "",
      },
      body: "--x--",
    });
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/catalog:load -- my-catalog.csv --remote/);
    const forged = await upload("catalog-fixed.csv", fixed, { _csrf: "forged" });
    expect(forged.status).toBe(403);
    const wrongKind = await upload("catalog.txt", fixed);
    expect(wrongKind.status).toBe(422);
    expect(await wrongKind.text()).toMatch(/expected a .json or .csv catalog file/);
  });
});

describe("catalog upload over one invocation's KV budget", () => {
  it("a valid catalog of 948 products is refused with 413 before anything is written", async () => {
    const manifest = await env.CATALOG.get("catalog:manifest");
    const csv = [...catalogCsvLines(generateCatalog(948, 3).products)].join("\n");
    const res = await upload("big.csv", csv);
    expect(res.status).toBe(413);
    const page = await res.text();
    expect(page).toMatch(/big.csv is valid but holds 948 products; an upload writes at most 947 in one go/);
    expect(page).toMatch(/catalog:load -- my-catalog.csv --remote/);
    expect(await env.CATALOG.get("catalog:manifest")).toBe(manifest);
  });
});

describe("stock from the catalog page", () => {
  it("mark unavailable, then add units: the agent sees the variant go and come back", async () => {
    await upload("catalog-fixed.csv", fixed);
    const variant = "var_fx_lamp";
    const action = `/admin/catalog/stock/${variant}`;
    const available = async () =>
      (await lookup(["prod_fx_lamp"]))[0]?.variants.find((v) => v.id === variant)?.availability?.available;
    expect(await available()).toBe(true);

    let { html } = await openPage("/admin/catalog", browser);
    const forms = html.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
    const markUnavailable = forms.find((f) => f.includes(`action="${action}"`) && f.includes("Mark unavailable"));
    expect(markUnavailable).toBeDefined();
    const marked = await postForm(markUnavailable ?? "", action, {}, browser);
    expect(marked.status).toBe(303);
    expect(await eventually(available, false)).toBe(false);
    ({ html } = await openPage("/admin/catalog", browser));
    expect(html).toMatch(/data-stock="var_fx_lamp">0</);

    const add = formFor(html, action);
    const added = await postForm(add, action, { op: "add", units: "4" }, browser);
    expect(added.status).toBe(303);
    // The same form submitted twice (a double click): one delivery, counted once.
    const again = await postForm(add, action, { op: "add", units: "4" }, browser);
    expect(again.status).toBe(303);
    expect(await eventually(available, true)).toBe(true);
    ({ html } = await openPage("/admin/catalog", browser));
    expect(html).toMatch(/data-stock="var_fx_lamp">4</);

    // That form's key with another quantity: refused, as the JSON API refuses it.
    const reused = await postForm(add, action, { op: "add", units: "5" }, browser);
    expect(reused.status).toBe(409);
    expect(await reused.text()).toMatch(/already used for another change/);

    const bad = await postForm(formFor(html, action), action, { op: "add", units: "lots" }, browser);
    expect(bad.status).toBe(400);
  }, 30_000);
});
