/** The console's catalog pages (issues 13, 26): the catalog and its products, uploads as background loads, stock changes. */
import { loadPage } from "./catalog-load-page";
import { createLoad, loadAction, receivePart, startLoad, uploadCatalog } from "./catalog-loads";
import { catalogPage } from "./catalog-page";
import { changeStock } from "./catalog-stock";
import type { ConsoleRoute } from "./types";

export const CATALOG_ROUTES: readonly ConsoleRoute[] = [
  { method: "GET", path: "/admin/catalog", handler: (ctx) => catalogPage(ctx) },
  { method: "POST", path: "/admin/catalog/upload", handler: (ctx) => uploadCatalog(ctx) },
  { method: "POST", path: "/admin/catalog/loads", handler: (ctx) => createLoad(ctx) },
  { method: "GET", path: "/admin/catalog/loads/:id", handler: loadPage },
  { method: "POST", path: "/admin/catalog/loads/:id/parts/:part", handler: receivePart },
  { method: "POST", path: "/admin/catalog/loads/:id/start", handler: startLoad },
  { method: "POST", path: "/admin/catalog/loads/:id/resume", handler: loadAction("resume") },
  { method: "POST", path: "/admin/catalog/loads/:id/discard", handler: loadAction("discard") },
  { method: "POST", path: "/admin/catalog/stock/:variant", handler: changeStock },
];
