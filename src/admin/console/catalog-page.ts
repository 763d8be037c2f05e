/**
 * `GET /admin/catalog`: what the store serves (the loaded catalog's manifest), the upload
 * form and the latest loads, and the products a page at a time (all, or those a search by
 * title, SKU or variant id finds: catalog-browse.ts) with each variant's stock as the
 * InventoryObject counts it now and its restock forms. Also the pages an upload answers with
 * before a load starts (a bad file, a file too large, another load running).
 */

import type { JobView } from "../../catalog/catalog-job";
import { type CatalogListPage, catalogListPage } from "../../catalog/catalog-list";
import type { CatalogManifest } from "../../catalog/kv-layout";
import type { CatalogProblem } from "../../catalog/merchant-catalog";
import { stockLevels } from "../../catalog/stock";
import { stockVersion } from "../../catalog/stock-keys";
import { stockLevelsNow } from "../../catalog/stock-shards";
import { html, type SafeHtml, trustedHtml } from "../../pages/html";
import { formatMoney } from "../../pages/money";
import { contentSecurityPolicy } from "../../pages/respond";
import { catalogLoads, loadPath } from "./catalog-loads";
import { UPLOAD_SCRIPT } from "./catalog-script";
import { variantRows } from "./catalog-variants";
import { consoleCsrfInput, renderConsole } from "./layout";
import type { ConsoleContext } from "./types";

const PER_PAGE = 25;
/** The stock forms sit on one line beside their variant (the console's inputs are full width). */
const STOCK_CSS =
  "form.stock{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center;margin:0 0 .25rem}" +
  "form.stock input[type=number]{width:6.5rem}form.stock button{padding:.4rem .75rem}";

/** The upload script sends the form by XMLHttpRequest (for its progress): to this origin only. */
function uploadHeaders(ctx: ConsoleContext): Record<string, string> {
  return { "content-security-policy": `${contentSecurityPolicy(ctx.nonce)}; connect-src 'self'` };
}
/** Problems shown on the page; a file with more says how many more (fix these first). */
const SHOWN_PROBLEMS = 500;

export async function catalogPage(ctx: ConsoleContext): Promise<Response> {
  const query = (ctx.url.searchParams.get("q") ?? "").slice(0, 200);
  const page = Number.parseInt(ctx.url.searchParams.get("page") ?? "1", 10) || 1;
  const listed = await catalogListPage(ctx.env, ctx.now, query, page, PER_PAGE);
  const loads = await catalogLoads(ctx.env).recent(3);
  return renderConsole(ctx, {
    title: "Catalog",
    script: UPLOAD_SCRIPT,
    headers: uploadHeaders(ctx),
    body: html`<h1>Catalog</h1>
${notice(ctx.url.searchParams)}
${summary(listed?.manifest)}
${recentLoads(loads)}
${uploadForm(ctx)}
${listed ? await productList(ctx, listed, query) : html`<p>No catalog is loaded yet: upload one above.</p>`}`,
  });
}

function notice(query: URLSearchParams): SafeHtml | string {
  const stocked = query.get("stocked");
  if (stocked !== null) return html`<p class="notice ok" role="status">Stock of ${stocked} updated.</p>`;
  return "";
}

function summary(m: CatalogManifest | undefined): SafeHtml | string {
  if (!m) return "";
  return html`<p class="muted">${m.products} products in ${m.currency}, loaded ${m.loaded_at} (version ${m.version}).</p>`;
}

export function uploadForm(ctx: ConsoleContext): SafeHtml {
  return html`<section class="card" aria-labelledby="upload-title">
<h2 id="upload-title">Upload a catalog</h2>
<p class="muted">A CSV (one row per variant, as <code>data/demo-catalog.csv</code>) or JSON file (<code>{"currency", "products"}</code>), checked exactly as <code>npm run catalog:load</code> checks it. The load runs in the background and its page shows the progress: nothing is served unless every row is valid, and the store serves the current catalog until the whole new one is written.</p>
<form method="post" action="/admin/catalog/upload" enctype="multipart/form-data" id="catalog-upload">
${consoleCsrfInput(ctx)}
<label for="catalog-file">Catalog file (.csv or .json, up to 100,000 products)</label>
<input id="catalog-file" name="catalog" type="file" accept=".csv,.json,text/csv,application/json" required>
<p><button type="submit">Check and load</button></p>
<p id="upload-progress" role="status" aria-live="polite" hidden><progress max="100" value="0" aria-label="Upload progress"></progress> <span></span></p>
</form>
</section>`;
}

function recentLoads(loads: readonly JobView[]): SafeHtml | string {
  const shown = loads.filter((l) => l.phase !== "receiving");
  if (shown.length === 0) return "";
  const word: Record<JobView["phase"], string> = {
    receiving: "receiving the file",
    checking: "checking",
    writing: "writing",
    cleaning: "loaded",
    done: "loaded",
    refused: "refused",
    discarded: "discarded",
  };
  return html`<section aria-labelledby="loads-title"><h2 id="loads-title">Latest uploads</h2><ul>${shown.map(
    (l) =>
      html`<li><a href="${loadPath(l.id)}">${l.file_name}</a>: ${word[l.phase]}${l.paused ? " (paused)" : ""}${l.phase === "refused" ? `, ${l.problems} problems` : l.products > 0 ? `, ${l.products} products` : ""}</li>`,
  )}</ul></section>`;
}

function searchForm(query: string, total: number, size: number): SafeHtml {
  return html`<form method="get" action="/admin/catalog" role="search" class="row" aria-label="Search products">
<label for="catalog-q">Search by title, SKU or variant id</label>
<input id="catalog-q" name="q" type="search" value="${query}" maxlength="200">
<button type="submit">Search</button>
${query ? html`<a href="/admin/catalog">Show all</a>` : ""}
</form>
<p class="muted" role="status">${query ? `${total} of ${size} products match.` : `${total} products.`}</p>`;
}

async function productList(ctx: ConsoleContext, listed: CatalogListPage, query: string) {
  const { docs, total, page, pages, products } = listed;
  const snapshot = { manifest: listed.manifest };
  const variantIds = docs.flatMap((d) => d.v.map((v) => v[0]));
  const given = await stockLevels(ctx.env.CATALOG, snapshot, variantIds);
  const live = await stockLevelsNow(ctx.env, variantIds, given, stockVersion(snapshot.manifest));
  const money = (minor: number) => formatMoney(minor, snapshot.manifest.currency, ctx.config.storefront.locale);
  return html`<section aria-labelledby="products-title">
<style nonce="${ctx.nonce}">${trustedHtml(STOCK_CSS)}</style>
<h2 id="products-title">Products</h2>
${searchForm(query, total, listed.size)}
${
  docs.length === 0
    ? html`<p>No product matches “${query}”.</p>`
    : html`<div class="card"><table>
<caption>Page ${page} of ${pages}: stock is live from the inventory</caption>
<thead><tr><th scope="col">Variant</th><th scope="col" class="num">Price</th><th scope="col">Catalog status</th><th scope="col" class="num">In stock now</th><th scope="col">Change stock</th></tr></thead>
${docs.map((doc) => {
  const product = products.get(doc.id);
  return html`<tbody><tr><th scope="rowgroup" colspan="5">${product?.title ?? doc.id} <span class="muted">${doc.id}</span></th></tr>
${variantRows(ctx, doc, product, live.levels, money, page)}</tbody>`;
})}
</table></div>`
}
${pager(query, page, pages)}
</section>`;
}

function pager(query: string, page: number, pages: number): SafeHtml | string {
  if (pages <= 1) return "";
  const href = (p: number) =>
    `/admin/catalog?${new URLSearchParams(query ? { q: query, page: String(p) } : { page: String(p) })}`;
  return html`<nav aria-label="Product pages" class="row">
${page > 1 ? html`<a href="${href(page - 1)}">Previous</a>` : ""}
<span>Page ${page} of ${pages}</span>
${page < pages ? html`<a href="${href(page + 1)}">Next</a>` : ""}
</nav>`;
}

/** The upload's problems, every one named, with the form to try again (nothing was written). */
export function catalogProblemsPage(
  ctx: ConsoleContext,
  status: number,
  problems: readonly CatalogProblem[],
  file?: string,
): Response {
  const shown = problems.slice(0, SHOWN_PROBLEMS);
  return renderConsole(ctx, {
    title: "Catalog not loaded",
    status,
    script: UPLOAD_SCRIPT,
    headers: uploadHeaders(ctx),
    body: html`<h1>Catalog not loaded</h1>
<div class="notice error" role="alert" id="upload-problems">
<p><strong>${file ?? "The upload"}: ${problems.length} problem${problems.length === 1 ? "" : "s"}; nothing was written.</strong> The store still serves the catalog it had.</p>
<ul>${shown.map((p) => html`<li>${p.where}: ${p.message}</li>`)}</ul>
${problems.length > shown.length ? html`<p>And ${problems.length - shown.length} more.</p>` : ""}
</div>
${uploadForm(ctx)}
<p><a href="/admin/catalog">Back to the catalog</a></p>`,
  });
}

/** 413: the file is more than an upload takes. */
export function catalogTooLarge(ctx: ConsoleContext, reason: string): Response {
  return renderConsole(ctx, {
    title: "Catalog too large to upload",
    status: 413,
    body: html`<h1>Catalog too large to upload</h1>
<p class="notice error" role="alert">${reason} Nothing was written.</p>
<p>The command-line loader streams files of any size into the deployed store:</p>
<pre class="card"><code>npm run catalog:load -- my-catalog.csv --remote</code></pre>
<p><a href="/admin/catalog">Back to the catalog</a></p>`,
  });
}

/** 409: one load runs at a time. */
export function loadBusyPage(ctx: ConsoleContext, running: string | undefined): Response {
  return renderConsole(ctx, {
    title: "Another catalog load is running",
    status: 409,
    body: html`<h1>Another catalog load is running</h1>
<p class="notice error" role="alert">One catalog load runs at a time; nothing of this file was loaded. Upload it again when the running load has finished.</p>
<p>${running ? html`<a href="${loadPath(running)}">See the running load</a> · ` : ""}<a href="/admin/catalog">Back to the catalog</a></p>`,
  });
}
