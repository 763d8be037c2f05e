/**
 * Merchant admin for orders: `POST /admin/orders/<id>/events` (fulfillment) and
 * `POST /admin/orders/<id>/adjustments` (refunds, cancellations...), behind ADMIN_TOKEN
 * (docs/orders.md); `GET /admin/orders/<id>/webhooks` shows the webhook delivery log.
 * Parses at the edge (src/admin/router.ts authenticates); the order object does the rest.
 * Answers plain JSON: the UCP order on success, `{error, ...}` otherwise.
 */
import type * as z from "zod";
import type { ChangeReply, OrderChange } from "../../durable-objects/order-object";
import { merchantConfig } from "../config";
import { jsonResponse } from "../lib/http";
import { isIssuedId } from "../lib/ids";
import { toJsonPath } from "../lib/json-path";
import { ORDER_ONLY_ENVELOPE } from "../order/merchant-envelope";
import { AdjustmentInputSchema, FulfillmentEventInputSchema } from "../order/order-input";
import { adminLedgerEntry, idempotencyConflict, idempotencyKey } from "./idempotency-key";
import { invalid, readJsonBody } from "./json-body";

/** The secret is optional by design: without it the admin routes do not exist. */
export type AdminEnv = Env & { readonly ADMIN_TOKEN?: string };

const ROUTE = /^\/admin\/orders\/([A-Za-z0-9_-]{1,200})\/(events|adjustments)$/;
const WEBHOOK_LOG = /^\/admin\/orders\/([A-Za-z0-9_-]{1,200})\/webhooks$/;
const BODY_LIMIT = 64 * 1024;

/** POST /admin/orders/<id>/(events|adjustments) and GET .../webhooks, after src/admin/router.ts granted access. */
export async function handleOrderAdmin(request: Request, env: AdminEnv, pathname: string): Promise<Response> {
  const log = request.method === "GET" ? WEBHOOK_LOG.exec(pathname)?.[1] : undefined;
  if (log) {
    if (!(await isIssuedId("ord", merchantConfig(env).idSecret, log))) return orderNotFound();
    return jsonResponse({ webhooks: await env.ORDER.getByName(log).webhooks() });
  }
  const match = request.method === "POST" ? ROUTE.exec(pathname) : null;
  const [orderId, op] = [match?.[1], match?.[2]];
  if (!orderId || !op) return noRoute(pathname);
  if (!(await isIssuedId("ord", merchantConfig(env).idSecret, orderId))) return orderNotFound();
  const read = await readJsonBody(request, BODY_LIMIT);
  if (read instanceof Response) return read;
  const { body } = read;
  const key = idempotencyKey(request);
  if (key instanceof Response) return key;
  const stub = env.ORDER.getByName(orderId);
  const reply =
    op === "events"
      ? await submit(FulfillmentEventInputSchema, body, { op, orderId, key }, (c) => stub.recordEvent(c))
      : await submit(AdjustmentInputSchema, body, { op, orderId, key }, (c) => stub.recordAdjustment(c));
  return reply instanceof Response ? reply : toResponse(reply);
}

/** Validates the body, scopes the idempotency key to the operation and order, and sends it. */
async function submit<S extends z.ZodType>(
  schema: S,
  body: unknown,
  at: { op: string; orderId: string; key: string | null },
  send: (change: OrderChange<z.output<S>>) => Promise<ChangeReply>,
): Promise<Response | ChangeReply> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return invalid(
      "invalid_input",
      parsed.error.issues.map((i) => ({ path: toJsonPath(i.path), message: i.message })),
    );
  }
  const idempotency = at.key ? await adminLedgerEntry(at.op, at.key, at.orderId, parsed.data) : undefined;
  return send({ input: parsed.data, idempotency, envelope: ORDER_ONLY_ENVELOPE });
}

function toResponse(reply: ChangeReply): Response {
  switch (reply.kind) {
    case "ok":
      return new Response(reply.body, { headers: { "content-type": "application/json" } });
    case "not_found":
      return orderNotFound();
    case "conflict":
      return idempotencyConflict();
    case "invalid":
      return invalid("invalid_input", reply.issues);
  }
}

function orderNotFound(): Response {
  return jsonResponse({ error: "not_found", message: "Order not found." }, 404);
}

export function noRoute(pathname: string): Response {
  return jsonResponse({ error: "not_found", message: `No route for ${pathname.slice(0, 200)}` }, 404);
}
