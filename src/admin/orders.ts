/**
 * Merchant admin for orders: `POST /admin/orders/<id>/events` (fulfillment) and
 * `POST /admin/orders/<id>/adjustments` (refunds, cancellations...), behind ADMIN_TOKEN
 * (docs/orders.md); `GET /admin/orders/<id>/webhooks` shows the webhook delivery log and
 * `POST .../webhooks/retry` sends the undelivered ones now; `GET /admin/orders` lists (the
 * order index), `GET /admin/orders/<id>` reads one order with its merchant-side facts, and
 * `POST /admin/orders/index/rebuild` rebuilds the index. Parses at the edge
 * (src/admin/router.ts authenticates); the objects do the rest. The console's order pages
 * call the same functions (changeOrder, orderDetail, listOrders). Answers plain JSON.
 */
import type * as z from "zod";
import type { ChangeReply, MerchantOrderView, OrderChange } from "../../durable-objects/order-object";
import { merchantConfig } from "../config";
import { jsonResponse } from "../lib/http";
import { orderHome } from "../lib/ids";
import { toJsonPath } from "../lib/json-path";
import { callObject } from "../lib/object-call";
import { ORDER_INDEX_NAME } from "../order/index-entry";
import { type OrderListPage, parseListQuery, type QueryIssue } from "../order/index-query";
import { ORDER_ONLY_ENVELOPE } from "../order/merchant-envelope";
import { AdjustmentInputSchema, FulfillmentEventInputSchema } from "../order/order-input";
import { orderStub } from "../tools/order-stub";
import { adminError } from "./api-error";
import { adminLedgerEntry, idempotencyConflict, idempotencyKey } from "./idempotency-key";
import { invalid, readJsonBody } from "./json-body";

/** The secret is optional by design: without it the admin routes do not exist. */
export type AdminEnv = Env & { readonly ADMIN_TOKEN?: string };

const ROUTE = /^\/admin\/orders\/([A-Za-z0-9_-]{1,200})\/(events|adjustments)$/;
const WEBHOOK_LOG = /^\/admin\/orders\/([A-Za-z0-9_-]{1,200})\/webhooks$/;
const WEBHOOK_RETRY = /^\/admin\/orders\/([A-Za-z0-9_-]{1,200})\/webhooks\/retry$/;
const ONE_ORDER = /^\/admin\/orders\/([A-Za-z0-9_-]{1,200})$/;
const REBUILD = "/admin/orders/index/rebuild";

export type OrderOp = "events" | "adjustments";
const BODY_LIMIT = 64 * 1024;

/** POST /admin/orders/<id>/(events|adjustments) and GET .../webhooks, after src/admin/router.ts granted access. */
export async function handleOrderAdmin(request: Request, env: AdminEnv, pathname: string): Promise<Response> {
  if (request.method === "GET") return handleOrderRead(env, pathname, new URL(request.url).searchParams);
  if (request.method === "POST" && pathname === REBUILD) return jsonResponse(await rebuildIndex(env), 202);
  const retry = request.method === "POST" ? WEBHOOK_RETRY.exec(pathname)?.[1] : undefined;
  if (retry) {
    const log = await retryWebhooks(env, retry);
    return log ? jsonResponse({ webhooks: log }) : orderNotFound();
  }
  const match = request.method === "POST" ? ROUTE.exec(pathname) : null;
  const [orderId, op] = [match?.[1], match?.[2]];
  if (!orderId || (op !== "events" && op !== "adjustments")) return noRoute(pathname);
  if (!(await orderHome(merchantConfig(env).idSecret, orderId))) return orderNotFound();
  const read = await readJsonBody(request, BODY_LIMIT);
  if (read instanceof Response) return read;
  const key = idempotencyKey(request);
  if (key instanceof Response) return key;
  return toResponse(await changeOrder(env, orderId, op, read.body, key));
}

async function handleOrderRead(env: AdminEnv, pathname: string, params: URLSearchParams): Promise<Response> {
  if (pathname === "/admin/orders") {
    const page = await listOrders(env, params);
    return "issues" in page ? invalid("invalid_input", page.issues) : jsonResponse(page);
  }
  if (pathname === REBUILD)
    return jsonResponse(await callObject(() => env.ORDER_INDEX.getByName(ORDER_INDEX_NAME).rebuildStatus()));
  const log = WEBHOOK_LOG.exec(pathname)?.[1];
  if (log) {
    const order = await orderStub(env, merchantConfig(env).idSecret, log);
    if (!order) return orderNotFound();
    return jsonResponse({ webhooks: await callObject(() => order.webhooks()) });
  }
  const one = ONE_ORDER.exec(pathname)?.[1];
  if (!one) return noRoute(pathname);
  const view = await orderDetail(env, one);
  return view ? jsonResponse(view) : orderNotFound();
}

/** One page of the order index: newest first, filtered and searched as `params` say. */
export async function listOrders(env: Env, params: URLSearchParams): Promise<OrderListPage | { issues: QueryIssue[] }> {
  const parsed = parseListQuery(params);
  if ("issues" in parsed) return parsed;
  return callObject(() => env.ORDER_INDEX.getByName(ORDER_INDEX_NAME).list(parsed.query));
}

/** The order as the merchant sees it (buyer, platform, webhook log), or undefined when there is none. */
export async function orderDetail(env: Env, orderId: string): Promise<MerchantOrderView | undefined> {
  const order = await orderStub(env, merchantConfig(env).idSecret, orderId);
  if (!order) return undefined;
  return callObject(() => order.merchantView(ORDER_ONLY_ENVELOPE));
}

/** Sends the order's undelivered webhooks now; its delivery log after, or undefined when there is no order. */
export async function retryWebhooks(env: Env, orderId: string) {
  const order = await orderStub(env, merchantConfig(env).idSecret, orderId);
  if (!order) return undefined;
  return callObject(() => order.retryWebhooks());
}

export function rebuildIndex(env: Env) {
  return callObject(() => env.ORDER_INDEX.getByName(ORDER_INDEX_NAME).rebuild());
}

/**
 * A fulfillment event or an adjustment, parsed and sent to the order's object with its
 * ledger entry (`key`, the Idempotency-Key, or null): the one path for the JSON API and the console.
 */
export async function changeOrder(
  env: Env,
  orderId: string,
  op: OrderOp,
  body: unknown,
  key: string | null,
): Promise<ChangeReply> {
  const order = await orderStub(env, merchantConfig(env).idSecret, orderId);
  if (!order) return { kind: "not_found" };
  // Each call makes a new object stub (order-stub.ts), so each try of callObject has its own;
  // each change is keyed, so a retry is as safe as the client's own.
  return op === "events"
    ? submit(FulfillmentEventInputSchema, body, { op, orderId, key }, (c) =>
        callObject<ChangeReply>(() => order.recordEvent(c)),
      )
    : submit(AdjustmentInputSchema, body, { op, orderId, key }, (c) =>
        callObject<ChangeReply>(() => order.recordAdjustment(c)),
      );
}

/** Validates the body, scopes the idempotency key to the operation and order, and sends it. */
async function submit<S extends z.ZodType>(
  schema: S,
  body: unknown,
  at: { op: string; orderId: string; key: string | null },
  send: (change: OrderChange<z.output<S>>) => Promise<ChangeReply>,
): Promise<ChangeReply> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return {
      kind: "invalid",
      issues: parsed.error.issues.map((i) => ({ path: toJsonPath(i.path), message: i.message })),
    };
  }
  const idempotency = at.key ? await adminLedgerEntry(at.op, at.key, at.orderId, parsed.data) : undefined;
  return send({ input: parsed.data, idempotency, envelope: ORDER_ONLY_ENVELOPE });
}

function toResponse(reply: ChangeReply): Response {
  switch (reply.kind) {
    case "ok":
      return new Response(reply.body, { headers: { "content-type": "application/json" } });
    // The console acts for the merchant: never another platform's order, never a create.
    case "not_found":
    case "not_owner":
      return orderNotFound();
    case "conflict":
    case "taken":
      return idempotencyConflict();
    case "invalid":
      return invalid("invalid_input", reply.issues);
  }
}

function orderNotFound(): Response {
  return adminError(404, "not_found", { message: "Order not found." });
}

export function noRoute(pathname: string): Response {
  return adminError(404, "not_found", { message: `No route for ${pathname.slice(0, 200)}` });
}
