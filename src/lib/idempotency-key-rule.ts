/**
 * The one idempotency-key rule (issue 27), wherever a key arrives: UCP `meta` and the
 * `Idempotency-Key` header (MCP and REST, src/pipeline/idempotency-key.ts), the admin API's
 * header and the console's forms. The spec shows a UUID and asks for at least 128 bits of
 * entropy, and gives no length (spec-digest §9); 1 to 128 visible ASCII characters is what
 * every place a key travels can carry unchanged: an HTTP field value, a ledger key
 * (`<op>:<key>`), and the completion's reservation and charge ids (`<checkout id>:<key>`,
 * at most 256 characters in the inventory). Anything else could be cut or rewritten on the
 * way: a lone surrogate becomes U+FFFD in UTF-8, so two different keys would meet as one.
 */
export const IDEMPOTENCY_KEY_MAX = 128;

/** The rule in words, for refusals. */
export const IDEMPOTENCY_KEY_RULE = `1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`;

const FORM = /^[\x21-\x7e]+$/;

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= IDEMPOTENCY_KEY_MAX && FORM.test(value);
}
