/**
 * Ledger keys the store writes itself, as opposed to a platform's (`<tool>:<key>`): the
 * merchant's admin changes (src/admin/idempotency-key.ts) and the payment processor's events
 * (src/payment-webhooks/stripe-webhook.ts). Since issue 29 an order shares its checkout's
 * ledger, so each side keeps its own size budget (durable-objects/shared/idempotency.ts): a
 * platform's writes to its session can never push out a key that stops a second refund.
 */
export const STORE_KEY_PREFIXES = ["admin-", "stripe-event:"] as const;

/** SQL that is true for a store key in `column` (prefixes hold no LIKE wildcards but `-`/`:`). */
export const STORE_KEY_SQL = (column: string): string =>
  `(${STORE_KEY_PREFIXES.map((p) => `substr(${column}, 1, ${p.length}) = '${p}'`).join(" OR ")})`;

export const isStoreKey = (key: string): boolean => STORE_KEY_PREFIXES.some((p) => key.startsWith(p));
