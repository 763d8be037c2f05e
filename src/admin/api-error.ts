/**
 * The admin JSON API's one error exit (issue 27 item 5): `{error, message}` or, for refused
 * input, `{error, issues}`, with the status the code goes with. The codes are a closed set:
 * a merchant's script branches on them (docs/orders.md, docs/inventory.md, docs/trust.md,
 * docs/console-catalog.md). Console pages a person reads answer with consoleMessage instead.
 */
import { jsonResponse } from "../lib/http";

export type AdminErrorCode =
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "not_configured"
  | "not_counted"
  | "invalid_input"
  | "invalid_json"
  | "invalid_file"
  | "too_large"
  | "length_required"
  | "idempotency_key_required"
  | "idempotency_conflict"
  | "not_receiving"
  | "busy"
  | "rate_limited"
  | "unavailable"
  | "store_misconfigured";

export type AdminIssue = { readonly path: string; readonly message: string };

/** What the code says in words, or the input's issues; `message` may bring facts a script reads (`running`). */
export type AdminErrorDetail =
  | { readonly message: string; readonly [fact: string]: unknown }
  | { readonly issues: ReadonlyArray<AdminIssue> };

export function adminError(
  status: number,
  error: AdminErrorCode,
  detail: AdminErrorDetail,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse({ error, ...detail }, status, headers);
}
