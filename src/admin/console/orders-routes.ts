/** The console's orders pages (issue 13): the list, one order, and its actions. */
import { orderAction, rebuildIndexAction, retryWebhooksAction } from "./orders-actions";
import { orderPage } from "./orders-detail";
import { ORDER_ACTIONS } from "./orders-forms";
import { ordersListPage } from "./orders-list";
import { packingSlipPage } from "./orders-slip";
import type { ConsoleRoute } from "./types";

export const ORDERS_ROUTES: readonly ConsoleRoute[] = [
  { method: "GET", path: "/admin/orders", handler: ordersListPage },
  { method: "POST", path: "/admin/orders/index/rebuild", handler: rebuildIndexAction },
  { method: "GET", path: "/admin/orders/:id", handler: (ctx, params) => orderPage(ctx, params) },
  { method: "GET", path: "/admin/orders/:id/packing-slip", handler: packingSlipPage },
  { method: "POST", path: "/admin/orders/:id/retry-webhooks", handler: retryWebhooksAction },
  ...ORDER_ACTIONS.map(
    (action): ConsoleRoute => ({ method: "POST", path: `/admin/orders/:id/${action}`, handler: orderAction(action) }),
  ),
];
