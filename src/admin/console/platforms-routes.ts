/** The console's platforms pages (issue 13). */
import type { ConsoleRoute } from "./types";

export const PLATFORMS_ROUTES: readonly ConsoleRoute[] = [];
