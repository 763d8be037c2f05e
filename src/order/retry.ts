/**
 * Retry schedule for the order object's background work (notifications, refunds, stock
 * releases): exponential backoff from 30 s, capped at 1 h, 10 attempts (about 5 h in all).
 * Pure; the object stores attempts and next_attempt_at and its alarm wakes at the earliest.
 */
export const MAX_ATTEMPTS = 10;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 3600_000;

/** When to try again after `attempts` tries (1 = the first try just started). */
export function nextAttemptAt(attempts: number, now: number): number {
  return now + Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));
}
