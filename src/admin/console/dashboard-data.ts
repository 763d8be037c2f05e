/**
 * What the dashboard draws, and where it comes from: the order index's `stats(now)` (one
 * object per store, env.ORDER_INDEX). The shape is declared here rather than imported so the
 * dashboard depends only on what it reads; the index's OrderStats must stay assignable to it
 * (dashboard-routes.ts fails to compile otherwise).
 */
export const DASHBOARD_DAYS = 30;
const DAY_MS = 86_400_000;

export interface DashboardStats {
  /** Start of the window (ms, a UTC midnight): `per_day` covers DASHBOARD_DAYS whole days from it. */
  readonly since: number;
  /** Every day of the window, oldest first; revenue in minor units, net of refunds. */
  readonly per_day: ReadonlyArray<{ readonly day: string; readonly orders: number; readonly revenue: number }>;
  /** Orders by status over all time. */
  readonly by_status: Readonly<Record<string, number>>;
  /** Best sellers over the window by units; amount in minor units. */
  readonly top_products: ReadonlyArray<{
    readonly item_id: string;
    readonly title: string;
    readonly quantity: number;
    readonly amount: number;
  }>;
  readonly webhook_failures: {
    /** Orders with a failed delivery in the window, and the failed attempts among them. */
    readonly orders: number;
    readonly attempts: number;
    readonly recent: ReadonlyArray<{
      readonly id: string;
      readonly created_at: number;
      readonly platform: string;
      readonly webhook_failures: number;
      readonly last_webhook_failure_at: number;
    }>;
  };
}

export interface DashboardSource {
  stats(now: number): Promise<DashboardStats>;
}

export function windowStart(now: number, days = DASHBOARD_DAYS): number {
  return (Math.floor(now / DAY_MS) - (days - 1)) * DAY_MS;
}

export function emptyStats(now: number): DashboardStats {
  const since = windowStart(now);
  return {
    since,
    per_day: Array.from({ length: DASHBOARD_DAYS }, (_, i) => ({
      day: new Date(since + i * DAY_MS).toISOString().slice(0, 10),
      orders: 0,
      revenue: 0,
    })),
    by_status: {},
    top_products: [],
    webhook_failures: { orders: 0, attempts: 0, recent: [] },
  };
}

export interface WindowFigures {
  readonly label: string;
  readonly orders: number;
  readonly revenue: number;
}

/** Today (UTC), the last 7 and the last 30 days, from the per-day rows (the last is today). */
export function windows(stats: DashboardStats): WindowFigures[] {
  const days = stats.per_day;
  const sum = (n: number) => {
    const slice = days.slice(Math.max(0, days.length - n));
    return {
      orders: slice.reduce((s, d) => s + d.orders, 0),
      revenue: slice.reduce((s, d) => s + d.revenue, 0),
    };
  };
  return [
    { label: "Today", ...sum(1) },
    { label: "Last 7 days", ...sum(7) },
    { label: "Last 30 days", ...sum(30) },
  ];
}
