/**
 * How much one tool call may send, by trust tier. Sessions keep what a call sends (buyer,
 * context, instruments) and the idempotency ledger keeps each response for 48 h, so the
 * argument size bounds what one request can store. The largest seed request is ~2 KiB and
 * a full 100-line checkout ~40 KiB; anonymous callers get room for that, identified
 * platforms four times as much. The 1 MiB body limit stays the outer bound.
 */
import type { Principal } from "../auth/authenticate";
import { invalidParams, type ProtocolError } from "../ucp/errors";

export const ARGUMENT_LIMIT_BYTES = { anonymous: 64 * 1024, authenticated: 256 * 1024 } as const;

/** A -32602 when the arguments are over the caller's limit (they can never succeed as sent). */
export function argumentsTooLarge(args: Record<string, unknown>, principal: Principal): ProtocolError | undefined {
  const limit = ARGUMENT_LIMIT_BYTES[principal.tier];
  const text = JSON.stringify(args);
  // A UTF-16 unit is at most 3 UTF-8 bytes: most calls are far under and skip the encoding.
  if (text.length * 3 <= limit) return undefined;
  const size = new TextEncoder().encode(text).byteLength;
  if (size <= limit) return undefined;
  return invalidParams(
    `Arguments too large: ${size} bytes, over the ${limit / 1024} KiB limit for ${principal.tier} callers`,
    { size, limit, tier: principal.tier },
  );
}
