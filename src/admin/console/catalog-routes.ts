/** The console's catalog pages (issue 13). */
import type { ConsoleRoute } from "./types";

export const CATALOG_ROUTES: readonly ConsoleRoute[] = [];
