/** The console's orders pages (issue 13). */
import type { ConsoleRoute } from "./types";

export const ORDERS_ROUTES: readonly ConsoleRoute[] = [];
