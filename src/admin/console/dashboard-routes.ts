/** The console's dashboard pages (issue 13). */
import type { ConsoleRoute } from "./types";

export const DASHBOARD_ROUTES: readonly ConsoleRoute[] = [];
