/** The console's dashboard (issue 13 item 5): the store at a glance, GET /admin/. */
import { ORDER_INDEX_NAME } from "../../order/index-entry";
import type { DashboardSource } from "./dashboard-data";
import { dashboardPage } from "./dashboard-page";
import type { ConsoleRoute } from "./types";

/** The store's order index: its OrderStats must stay assignable to DashboardStats. */
export function dashboardSource(env: Env): DashboardSource {
  const index = env.ORDER_INDEX.getByName(ORDER_INDEX_NAME);
  return { stats: (now) => index.stats(now) };
}

export const DASHBOARD_ROUTES: readonly ConsoleRoute[] = [
  { method: "GET", path: "/admin/", handler: (ctx) => dashboardPage(ctx, dashboardSource(ctx.env)) },
];
