/**
 * One webhook outbox row as the sender sees it: the shape is stored in the order object's
 * `webhooks` table (durable-objects/order/webhooks.ts), kept here so the HTTP sender in
 * src/order/ needs nothing from durable-objects/.
 */

export type WebhookEvent = "order.created" | "order.updated";

export type WebhookRow = {
  readonly id: string;
  readonly seq: number;
  readonly event: WebhookEvent;
  readonly url: string;
  readonly body: string;
  readonly occurred_at: number;
  readonly attempts: number;
  readonly delivered_at: number | null;
  readonly failed_at: number | null;
  readonly next_attempt_at: number | null;
};

/** What one attempt produced: delivered means a 2xx. */
export interface AttemptResult {
  readonly delivered: boolean;
  readonly status?: number;
  readonly error?: string;
}
