/**
 * One order: the snapshot made at completion, later fulfillment events and adjustments.
 * Created once (idempotent per order id); readable only by the platform that placed it.
 */
import { DurableObject } from "cloudflare:workers";
import { type OrderState, orderPayload } from "../src/order/order-state";
import { ensureTables, hasTable } from "./shared/schema";

const ORDER_SCHEMA = "CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, state TEXT NOT NULL)";

export type OrderReply = { kind: "ok"; body: string } | { kind: "not_found" } | { kind: "unauthorized" };

export class OrderObject extends DurableObject<Env> {
  /** Stores the order unless it exists already (a retried completion makes no second order). */
  async create(order: OrderState): Promise<{ created: boolean }> {
    return this.ctx.storage.transactionSync(() => {
      ensureTables(this.ctx.storage.sql, [ORDER_SCHEMA]);
      if (this.#load()) return { created: false };
      this.ctx.storage.sql.exec("INSERT INTO orders (id, state) VALUES (?, ?)", order.id, JSON.stringify(order));
      return { created: true };
    });
  }

  /** The full order for its owner; another platform gets `unauthorized`. Writes nothing. */
  async read(owner: string, envelope: unknown): Promise<OrderReply> {
    const order = hasTable(this.ctx.storage.sql, "orders") ? this.#load() : undefined;
    if (!order) return { kind: "not_found" };
    if (order.owner !== owner) return { kind: "unauthorized" };
    return { kind: "ok", body: JSON.stringify(orderPayload(order, envelope)) };
  }

  #load(): OrderState | undefined {
    const row = this.ctx.storage.sql.exec<{ state: string }>("SELECT state FROM orders").toArray()[0];
    return row ? (JSON.parse(row.state) as OrderState) : undefined;
  }
}
