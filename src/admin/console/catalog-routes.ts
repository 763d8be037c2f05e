/** The console's catalog pages (issue 13): the catalog and its products, the upload, stock changes. */
import { catalogPage } from "./catalog-page";
import { changeStock } from "./catalog-stock";
import { uploadCatalog } from "./catalog-upload";
import type { ConsoleRoute } from "./types";

export const CATALOG_ROUTES: readonly ConsoleRoute[] = [
  { method: "GET", path: "/admin/catalog", handler: (ctx) => catalogPage(ctx) },
  { method: "POST", path: "/admin/catalog/upload", handler: (ctx) => uploadCatalog(ctx) },
  { method: "POST", path: "/admin/catalog/stock/:variant", handler: changeStock },
];
