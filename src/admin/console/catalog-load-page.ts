/**
 * `GET /admin/catalog/loads/<id>`: one catalog load's progress. While it runs the page
 * refreshes itself (a meta refresh without script; with script it fetches itself and swaps
 * the status in place). A refused load lists every problem, a page of them at a time; a
 * paused one offers Resume (from its cursor) and Discard.
 */
import type { JobView } from "../../catalog/catalog-job";
import { loadPrefix } from "../../catalog/catalog-keys";
import { servedManifest } from "../../catalog/search-served";
import { forgetServedCatalog } from "../../catalog/served-cache";
import { html, type SafeHtml } from "../../pages/html";
import { contentSecurityPolicy } from "../../pages/respond";
import { catalogLoads, loadPath } from "./catalog-loads";
import { LOAD_PAGE_SCRIPT } from "./catalog-script";
import { consoleCsrfInput, consoleMessage, renderConsole } from "./layout";
import type { ConsoleContext } from "./types";

const PROBLEMS_PER_PAGE = 1_000;
const REFRESH_SECONDS = 2;

export async function loadPage(ctx: ConsoleContext, params: Readonly<Record<string, string>>): Promise<Response> {
  const id = params.id ?? "";
  const loads = catalogLoads(ctx.env);
  const load = await loads.status(id);
  if (!load) return consoleMessage(ctx, 404, "Not found", "There is no such catalog load.");
  const live = load.phase === "receiving" || load.phase === "checking" || load.phase === "writing";
  if (load.served_at !== null) await serveNewCatalog(ctx, load);
  const requested = Number.parseInt(ctx.url.searchParams.get("problems") ?? "1", 10) || 1;
  const pages = Math.max(1, Math.ceil(load.problems / PROBLEMS_PER_PAGE));
  const page = Math.min(pages, Math.max(1, requested));
  const problems = load.problems > 0 ? await loads.problems(id, (page - 1) * PROBLEMS_PER_PAGE, PROBLEMS_PER_PAGE) : [];
  return renderConsole(ctx, {
    title: `Catalog load: ${load.file_name}`,
    status: load.phase === "refused" ? 422 : 200,
    script: LOAD_PAGE_SCRIPT,
    headers: { "content-security-policy": `${contentSecurityPolicy(ctx.nonce)}; connect-src 'self'` },
    ...(live ? { head: html`<noscript><meta http-equiv="refresh" content="${REFRESH_SECONDS}"></noscript>` } : {}),
    body: html`<h1>Catalog load: ${load.file_name}</h1>
<section class="card" id="load-status" aria-labelledby="load-state"${live ? html` data-running="1"` : ""}>
${state(ctx, load)}
</section>
${load.phase === "refused" ? problemList(load, problems, page, pages) : ""}
<p><a href="/admin/catalog">Back to the catalog</a>${live ? html` · <a href="${loadPath(id)}">Reload this page</a>` : ""}</p>`,
  });
}

/**
 * The isolate that shows "loaded" serves the new catalog now, not at its next 30-second check
 * (its cached manifest, never the KV index, tells: a D1 catalog's isolate never loads that).
 */
async function serveNewCatalog(ctx: ConsoleContext, load: JobView): Promise<void> {
  const manifest = await servedManifest(ctx.env.CATALOG, ctx.now);
  if (manifest?.keys !== loadPrefix(load.id)) forgetServedCatalog();
}

const n = (value: number) => value.toLocaleString("en-US");

function bar(done: number, total: number, label: string): SafeHtml {
  const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
  return html`<p><progress max="${total}" value="${done}" aria-label="${label}">${pct}%</progress> ${pct}%</p>`;
}

function state(ctx: ConsoleContext, load: JobView): SafeHtml {
  const failure = load.error ? stepFailure(ctx, load) : "";
  switch (load.phase) {
    case "receiving":
      return html`<h2 id="load-state">Receiving the file</h2><p>${n(load.bytes)} bytes are being sent. If the upload stopped, upload the file again from the catalog page.</p>`;
    case "checking":
      return html`<h2 id="load-state">Checking every row</h2><p role="status">${n(load.checked_rows)} rows read so far. Nothing is written until every row is valid; the store serves its current catalog.</p>${failure}`;
    case "writing":
      return html`<h2 id="load-state">Writing products</h2><p role="status">All ${n(load.products)} products (${n(load.variants)} variants) are valid. Written ${n(load.written)} of ${n(load.products)}; the store serves its current catalog until the last one is written.</p>
${bar(load.written, load.products, "Products written")}${failure}`;
    case "cleaning":
    case "done":
      return html`<h2 id="load-state">Loaded</h2><p class="notice ok" role="status">Loaded ${n(load.products)} products (${n(load.variants)} variants, version ${load.version ?? ""}). The store serves them now.</p>
${load.phase === "cleaning" ? html`<p class="muted">Removing the previous catalog's keys (${n(load.removed)} products so far); they are no longer served.</p>` : load.removed > 0 ? html`<p class="muted">Removed ${n(load.removed)} products of the previous catalog.</p>` : ""}${failure}`;
    case "refused":
      return html`<h2 id="load-state">Not loaded</h2><p class="notice error" role="alert">${load.file_name}: ${n(load.problems)} problem${load.problems === 1 ? "" : "s"}; nothing was written. The store still serves the catalog it had.</p>`;
    case "discarded":
      return html`<h2 id="load-state">Discarded</h2><p>This load was given up and what it wrote was removed. The store serves the catalog it had.</p>`;
  }
}

function stepFailure(ctx: ConsoleContext, load: JobView): SafeHtml {
  if (!load.paused)
    return html`<p class="notice error">A step failed (${load.error ?? ""}); it is tried again shortly, from where it stopped.</p>`;
  return html`<div class="notice error" role="alert"><p>Paused: a step failed three times (${load.error ?? ""}). Resume goes on from where it stopped; nothing already written is written again.</p>
<form method="post" action="${loadPath(load.id)}/resume" class="row">${consoleCsrfInput(ctx)}<button type="submit">Resume</button></form>
${load.served_at === null ? html`<form method="post" action="${loadPath(load.id)}/discard" class="row">${consoleCsrfInput(ctx)}<button type="submit" class="secondary">Discard this load</button></form>` : ""}</div>`;
}

function problemList(
  load: JobView,
  problems: readonly { where: string; message: string }[],
  page: number,
  pages: number,
) {
  const first = (page - 1) * PROBLEMS_PER_PAGE + 1;
  return html`<section aria-labelledby="problems-title" id="upload-problems">
<h2 id="problems-title">Problems${pages > 1 ? ` ${n(first)} to ${n(first + problems.length - 1)} of ${n(load.problems)}` : ""}</h2>
<ol start="${first}">${problems.map((p) => html`<li>${p.where}: ${p.message}</li>`)}</ol>
${pages > 1 ? html`<nav aria-label="Problem pages" class="row">${page > 1 ? html`<a href="${loadPath(load.id)}?problems=${page - 1}">Previous problems</a>` : ""}${page < pages ? html`<a href="${loadPath(load.id)}?problems=${page + 1}">Next problems</a>` : ""}</nav>` : ""}
<p>Fix these rows and upload the file again.</p>
</section>`;
}
