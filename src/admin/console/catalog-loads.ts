/**
 * Catalog uploads from the console, as background loads (src/catalog/catalog-job.ts, run by
 * the CatalogLoadObject): the file goes into R2, the object checks and writes it, and the
 * load's page (catalog-load-page.ts) shows its progress.
 *
 * With the page's script the file goes up in parts (POST …/loads, …/loads/<id>/parts/<n>
 * with the raw bytes, …/loads/<id>/start), so a file of any size up to MAX_UPLOAD_BYTES fits
 * Workers' request limits and never sits whole in memory. Without script the form posts the
 * file whole to /admin/catalog/upload (up to NO_SCRIPT_MAX_BYTES) and the same load runs.
 */
import {
  CATALOG_LOAD_NAME,
  kindOf,
  MAX_PARTS,
  MAX_UPLOAD_BYTES,
  newJobId,
  UPLOAD_PART_BYTES,
  uploadPartKey,
} from "../../catalog/catalog-job";
import { constantTimeEqual } from "../../lib/cookies";
import { jsonResponse } from "../../lib/http";
import { seeOther } from "../../pages/respond";
import { type AdminErrorCode, adminError } from "../api-error";
import { catalogProblemsPage, catalogTooLarge, loadBusyPage } from "./catalog-page";
import { crossOrigin, readConsoleForm } from "./forms";
import { consoleMessage } from "./layout";
import type { ConsoleContext } from "./types";

/** The form without script holds the file in memory (FormData): kept well inside an isolate's 128 MB. */
export const NO_SCRIPT_MAX_BYTES = 32 * 1024 * 1024;
export const CSRF_HEADER = "x-console-csrf";

export function catalogLoads(env: Env) {
  return env.CATALOG_LOAD.get(env.CATALOG_LOAD.idFromName(CATALOG_LOAD_NAME));
}

export function loadPath(id: string): string {
  return `/admin/catalog/loads/${encodeURIComponent(id)}`;
}

const NO_STORE = { "cache-control": "no-store" };
const refused = (ctx: ConsoleContext) =>
  consoleMessage(ctx, 403, "Refused", "The form expired or came from elsewhere. Reload the page and try again.");

/** A script's request: same origin, and this session's CSRF token in a header. */
function scriptAllowed(ctx: ConsoleContext): boolean {
  if (crossOrigin(ctx.request, [ctx.config.origin, ctx.url.origin])) return false;
  const sent = ctx.request.headers.get(CSRF_HEADER);
  return sent !== null && constantTimeEqual(sent, ctx.csrfToken);
}

function jsonError(status: number, error: AdminErrorCode, message: string): Response {
  return adminError(status, error, { message }, NO_STORE);
}

/** `POST /admin/catalog/upload`: the form without script; the whole file in one request. */
export async function uploadCatalog(ctx: ConsoleContext): Promise<Response> {
  const length = Number(ctx.request.headers.get("content-length") ?? Number.NaN);
  if (!Number.isFinite(length))
    return consoleMessage(ctx, 411, "Length required", "Send the catalog from the upload form.");
  if (length > NO_SCRIPT_MAX_BYTES)
    return catalogTooLarge(
      ctx,
      `The file is ${mib(length)}; without JavaScript the form takes up to ${mib(NO_SCRIPT_MAX_BYTES)}. With JavaScript on, the page sends files up to ${mib(MAX_UPLOAD_BYTES)} in parts.`,
    );
  const form = await readConsoleForm(ctx);
  if (!form) return refused(ctx);
  const file = form.get("catalog");
  if (!(file instanceof File) || file.size === 0)
    return catalogProblemsPage(ctx, 422, [{ where: "file", message: "choose a .csv or .json catalog file" }]);
  const kind = kindOf(file.name);
  if (!kind)
    return catalogProblemsPage(ctx, 422, [{ where: file.name, message: "expected a .json or .csv catalog file" }]);
  const loads = catalogLoads(ctx.env);
  const id = newJobId();
  await loads.create({ id, fileName: file.name, kind, bytes: file.size, currency: ctx.config.currency });
  await ctx.env.CATALOG_UPLOADS.put(uploadPartKey(id, 0), file);
  const started = await loads.start(id, 1);
  if (!started.ok) return started.error === "busy" ? loadBusyPage(ctx, started.running) : refused(ctx);
  return seeOther(loadPath(id));
}

/** `POST /admin/catalog/loads` (script): a load waiting for its file; answers its id and the part size. */
export async function createLoad(ctx: ConsoleContext): Promise<Response> {
  const form = await readConsoleForm(ctx);
  if (!form) return jsonError(403, "forbidden", "The form expired or came from elsewhere. Reload the page.");
  const name = String(form.get("file_name") ?? "").slice(0, 200);
  const bytes = Number(form.get("file_size"));
  const kind = kindOf(name);
  if (!kind) return jsonError(422, "invalid_file", `${name || "The file"}: expected a .json or .csv catalog file`);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) return jsonError(422, "invalid_file", "The file is empty.");
  if (bytes > MAX_UPLOAD_BYTES)
    return jsonError(413, "too_large", `The file is ${mib(bytes)}; an upload takes up to ${mib(MAX_UPLOAD_BYTES)}.`);
  const id = newJobId();
  await catalogLoads(ctx.env).create({ id, fileName: name, kind, bytes, currency: ctx.config.currency });
  return jsonResponse(
    { id, part_bytes: UPLOAD_PART_BYTES, parts: Math.ceil(bytes / UPLOAD_PART_BYTES), page: loadPath(id) },
    201,
    NO_STORE,
  );
}

/** `POST /admin/catalog/loads/<id>/parts/<n>` (script): one part's raw bytes into R2. */
export async function receivePart(ctx: ConsoleContext, params: Readonly<Record<string, string>>): Promise<Response> {
  if (!scriptAllowed(ctx)) return jsonError(403, "forbidden", "Reload the page and upload again.");
  const id = params.id ?? "";
  const part = Number(params.part);
  if (!Number.isSafeInteger(part) || part < 0 || part >= MAX_PARTS) return jsonError(404, "not_found", "No such part.");
  const length = Number(ctx.request.headers.get("content-length") ?? Number.NaN);
  if (!Number.isFinite(length)) return jsonError(411, "length_required", "Send the part with its length.");
  if (length > UPLOAD_PART_BYTES) return jsonError(413, "too_large", `A part is at most ${UPLOAD_PART_BYTES} bytes.`);
  const load = await catalogLoads(ctx.env).status(id);
  if (!load) return jsonError(404, "not_found", "No such load.");
  if (load.phase !== "receiving") return jsonError(409, "not_receiving", "This load already has its file.");
  // Only the parts the file's size makes: start (and cleaning) reads and deletes exactly those.
  const parts = Math.ceil(load.bytes / UPLOAD_PART_BYTES);
  if (part >= parts)
    return jsonError(404, "not_found", `No such part: this file has ${parts} part${parts === 1 ? "" : "s"}.`);
  const bytes = await ctx.request.arrayBuffer();
  await ctx.env.CATALOG_UPLOADS.put(uploadPartKey(id, part), bytes);
  return jsonResponse({ id, part, bytes: bytes.byteLength }, 200, NO_STORE);
}

/** `POST /admin/catalog/loads/<id>/start` (script): every part is in; check and load. */
export async function startLoad(ctx: ConsoleContext, params: Readonly<Record<string, string>>): Promise<Response> {
  if (!scriptAllowed(ctx)) return jsonError(403, "forbidden", "Reload the page and upload again.");
  const id = params.id ?? "";
  const loads = catalogLoads(ctx.env);
  const load = await loads.status(id);
  if (!load) return jsonError(404, "not_found", "No such load.");
  const started = await loads.start(id, Math.ceil(load.bytes / UPLOAD_PART_BYTES));
  if (!started.ok) {
    const running = started.running ? loadPath(started.running) : undefined;
    return adminError(
      409,
      started.error,
      { message: "Another catalog load is running; wait for it to finish.", running },
      NO_STORE,
    );
  }
  return jsonResponse({ id, page: loadPath(id) }, 202, NO_STORE);
}

/** `POST /admin/catalog/loads/<id>/resume` and `…/discard`: a paused load's two ways on. */
export function loadAction(action: "resume" | "discard") {
  return async (ctx: ConsoleContext, params: Readonly<Record<string, string>>): Promise<Response> => {
    const form = await readConsoleForm(ctx);
    if (!form) return refused(ctx);
    const id = params.id ?? "";
    const loads = catalogLoads(ctx.env);
    const done = action === "resume" ? await loads.resume(id) : await loads.discard(id);
    if (!done) return consoleMessage(ctx, 409, "Nothing to do", "This load is not paused. Reload its page.");
    return seeOther(loadPath(id));
  };
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
