/**
 * The compact item path of a permalink (permalink.md §Compact Item Path, §Item ID Token):
 * `item_id_token:quantity` pairs, comma-separated. A token is the raw identifier when it fits
 * `[A-Za-z0-9._-]+`, else `~` + canonical unpadded base64url of its UTF-8. Pure.
 */
import { fromBase64Url, toBase64Url } from "../lib/ids";
import { err, ok, type Result } from "../lib/result";
import { hasControlCharacter, PERMALINK_LIMITS } from "./limits";

export interface PermalinkItem {
  /** The decoded identifier: a variant id (or a product id the cart resolves to its variant). */
  readonly id: string;
  readonly quantity: number;
}

const RAW_TOKEN = /^[A-Za-z0-9._-]+$/;
const QUANTITY = /^[1-9][0-9]*$/;

/** The identifier a token stands for, or why it is refused. */
export function decodeItemToken(token: string): Result<string, string> {
  if (!token.startsWith("~")) return RAW_TOKEN.test(token) ? ok(token) : err("is not a valid item token");
  const body = token.slice(1);
  const bytes = fromBase64Url(body);
  // Canonical only: no padding, no other alphabet, and unused trailing bits zero (re-encoding gives it back).
  if (!bytes || bytes.length === 0 || toBase64Url(bytes) !== body) return err("is not canonical base64url");
  let id: string;
  try {
    id = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return err("does not decode to UTF-8 text");
  }
  if (hasControlCharacter(id)) return err("decodes to text with control characters");
  return ok(id);
}

/**
 * The items of a path segment ("" = none). The same identifier twice (raw and `~` forms are
 * one identity) is one line with the quantities added: an order-independent rule.
 */
export function parseItemPath(segment: string): Result<PermalinkItem[], string> {
  if (segment === "") return ok([]);
  // Identifiers are never percent-encoded into the path (permalink.md §Item ID Token).
  if (segment.includes("%")) return err("Item identifiers in the link are percent-encoded.");
  const pairs = segment.split(",");
  if (pairs.length > PERMALINK_LIMITS.maxItems)
    return err(`The link names more than ${PERMALINK_LIMITS.maxItems} items.`);
  const quantities = new Map<string, number>();
  for (const [i, pair] of pairs.entries()) {
    const colon = pair.lastIndexOf(":");
    const token = colon < 0 ? pair : pair.slice(0, colon);
    const quantity = colon < 0 ? "" : pair.slice(colon + 1);
    if (!QUANTITY.test(quantity)) return err(`Item ${i + 1} of the link has no valid quantity.`);
    const id = decodeItemToken(token);
    if (!id.ok) return err(`Item ${i + 1} of the link ${id.error}.`);
    if (id.value.length > PERMALINK_LIMITS.maxItemIdLength) return err(`Item ${i + 1} of the link is too long.`);
    const total = (quantities.get(id.value) ?? 0) + Number(quantity);
    if (total > PERMALINK_LIMITS.maxQuantity)
      return err(`Item ${i + 1} of the link asks for more than ${PERMALINK_LIMITS.maxQuantity}.`);
    quantities.set(id.value, total);
  }
  return ok([...quantities].map(([id, quantity]) => ({ id, quantity })));
}
