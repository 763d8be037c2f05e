/**
 * Retry schedules for the order object's background work: exponential backoff from a first
 * delay, capped, up to a last attempt. Notifications, refunds and stock releases use the
 * default (30 s doubling to 1 h, 10 attempts, about 5 h in all); webhooks use their own
 * (durable-objects/order/webhooks.ts). Pure; the object stores attempts and next_attempt_at and its
 * alarm wakes at the earliest.
 */
export interface RetryPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { firstDelayMs: 30_000, maxDelayMs: 3600_000, maxAttempts: 10 };
export const MAX_ATTEMPTS = DEFAULT_RETRY.maxAttempts;

/** When to try again after `attempts` tries (1 = the first try just started). */
export function nextAttemptAt(attempts: number, now: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  return now + Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
}
