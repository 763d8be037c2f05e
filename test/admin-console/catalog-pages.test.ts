/**
 * The console's catalog pages (issue 13): an uploaded CSV is checked by the loader's own code
 * (every bad row named by file line and variant id, nothing written), a good one is served to
 * agents once its background load ends (issue 26; the loads themselves:
 * catalog-load-job.test.ts), and the stock forms change what an agent is offered.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { noDelays, runLoad, uploadForm } from "../helpers/catalog-load";
import { type Browser, formFor, ORIGIN, openPage, postForm, signIn } from "../helpers/console";
import { callTool } from "../helpers/mcp";
import { decodeEntities } from "../helpers/pages";
import broken from "../node/fixtures/catalog-broken.csv?raw";
import fixed from "../node/fixtures/catalog-fixed.csv?raw";

const browser: Browser = { ip: "10.13.3.1" };

/** The upload form posted without script; a load's page once its background load ended. */
async function upload(name: string, text: string, extra: Record<string, string> = {}): Promise<Response> {
  const res = await uploadForm(browser, name, text, extra);
  if (res.status !== 303) return res;
  const page = res.headers.get("location") ?? "";
  await runLoad(page.split("/").pop() ?? "");
  const { res: loaded, html } = await openPage(page, browser);
  return new Response(html, { status: loaded.status, headers: loaded.headers });
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
  await noDelays();
});

describe("catalog upload", () => {
  it("a broken CSV: every bad row named by line and variant id, nothing written", async () => {
    const before = await env.CATALOG.list();
    const res = await upload("catalog-broken.csv", broken);
    expect(res.status).toBe(422);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = decodeEntities(await res.text());
    expect(page).toMatch(/catalog-broken\.csv: 5 problems; nothing was written/);
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
    expect(res.status).toBe(200);
    // The test store starts with the demo catalog: the upload replaces all of it.
    const loaded = decodeEntities(await res.text());
    expect(loaded).toMatch(/Loaded 5 products/);
    expect(loaded).toMatch(/Removed 68 products of the previous catalog/);
    const search = await callTool("search_catalog", { catalog: { query: "Loop Tee" } });
    const found = search.body.result.structuredContent.products as Array<{ id: string }>;
    expect(found.map((p) => p.id)).toContain("prod_fx_tee");
    const { html } = await openPage("/admin/catalog", browser);
    expect(html).toContain("Camp Mug");
    expect(html).toMatch(/data-stock="var_fx_mug_green">8</);

    const withoutSocks = fixed
      .split("\n")
      .filter((line) => !line.startsWith("prod_fx_socks"))
      .join("\n");
    const again = await upload("catalog-fixed.csv", withoutSocks);
    expect(decodeEntities(await again.text())).toMatch(/Loaded 4 products/);
    expect(
      (await env.CATALOG.list({ prefix: "load:" })).keys.some((k) => k.name.endsWith(":product:prod_fx_socks")),
    ).toBe(false);
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
    expect(loaded.status).toBe(200);
    expect(decodeEntities(await loaded.text())).toMatch(/Loaded 68 products/);
  });

  it("refuses a file over the cap with 413, a form without its CSRF token with 403, and a .txt by name", async () => {
    const big = await exports.default.fetch(`${ORIGIN}/admin/catalog/upload`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(33 * 1024 * 1024),
        origin: ORIGIN,
        cookie: browser.cookie ?? "",
      },
      body: "--x--",
    });
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/without JavaScript the form takes up to 32\.0 MiB/);
    const forged = await upload("catalog-fixed.csv", fixed, { _csrf: "forged" });
    expect(forged.status).toBe(403);
    const wrongKind = await upload("catalog.txt", fixed);
    expect(wrongKind.status).toBe(422);
    expect(await wrongKind.text()).toMatch(/expected a .json or .csv catalog file/);
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
