/** The console's dashboard (issue 13 item 5): the store at a glance, GET /admin/. */
import { dashboardPage } from "./dashboard-page";
import type { ConsoleRoute } from "./types";

export const DASHBOARD_ROUTES: readonly ConsoleRoute[] = [{ method: "GET", path: "/admin/", handler: dashboardPage }];
