/**
 * A permalink's query (permalink.md §Query Processing): `continue_to`, UCP field paths (JSON
 * Pointers, the leading `/` optional, whose root is a top-level Cart or Checkout field) and
 * everything else, passed through. Two names that normalize to one pointer, or two
 * `continue_to`, make the link ambiguous: refused, never settled by their order. Pure.
 */
import { err, ok, type Result } from "../lib/result";
import { hasControlCharacter, PERMALINK_LIMITS } from "./limits";

/**
 * Top-level fields of the 2026-08-25 Cart and Checkout schemas (cart.json, checkout.json) and of
 * the extensions this store supports (discount: `discounts`; fulfillment: `fulfillment`; buyer
 * consent lives under `buyer`). permalink.json defines no fields of its own.
 */
export const UCP_ROOTS: ReadonlySet<string> = new Set([
  "ucp",
  "id",
  "line_items",
  "context",
  "signals",
  "attribution",
  "buyer",
  "currency",
  "totals",
  "actions",
  "messages",
  "links",
  "policies",
  "continue_url",
  "expires_at",
  "status",
  "payment",
  "order",
  "discounts",
  "fulfillment",
]);

export interface FieldPath {
  /** The canonical pointer, e.g. `/buyer/email`. */
  readonly pointer: string;
  /** Its reference tokens, unescaped (`~1` is `/`, `~0` is `~`); undefined when an escape is invalid. */
  readonly tokens: readonly string[] | undefined;
  readonly value: string;
}

export interface PermalinkQuery {
  /** The `continue_to` value, percent-decoded once; validated by continue-to.ts. */
  readonly continueTo?: string;
  readonly fields: readonly FieldPath[];
  /** Non-UCP parameters, decoded, in their order (sensitive ones are filtered where they are emitted). */
  readonly passThrough: ReadonlyArray<readonly [string, string]>;
}

export type QueryProblem = { readonly kind: "malformed" | "ambiguous"; readonly message: string };

/** One RFC 3986 percent-decoding pass (`+` stays `+`: a permalink is not a submitted form). */
function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function unescapeToken(token: string): string | undefined {
  if (/~(?![01])/.test(token)) return undefined;
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `search` is the URL's raw query, with or without its `?`. */
export function parsePermalinkQuery(search: string): Result<PermalinkQuery, QueryProblem> {
  const raw = search.startsWith("?") ? search.slice(1) : search;
  const pieces = raw === "" ? [] : raw.split("&").filter((p) => p !== "");
  if (pieces.length > PERMALINK_LIMITS.maxQueryParams)
    return err({ kind: "malformed", message: `The link has more than ${PERMALINK_LIMITS.maxQueryParams} parameters.` });
  let continueTo: string | undefined;
  const fields = new Map<string, FieldPath>();
  const passThrough: Array<readonly [string, string]> = [];
  for (const piece of pieces) {
    const at = piece.indexOf("=");
    const name = decode(at < 0 ? piece : piece.slice(0, at));
    const value = decode(at < 0 ? "" : piece.slice(at + 1));
    if (name === undefined || value === undefined)
      return err({ kind: "malformed", message: "The link's parameters are not encoded correctly." });
    // A bad continue_to falls back to the default destination (destination.ts), not a refusal.
    if (hasControlCharacter(name) || (name !== "continue_to" && hasControlCharacter(value)))
      return err({ kind: "malformed", message: "The link's parameters contain control characters." });
    if (value.length > PERMALINK_LIMITS.maxValueLength || name.length > PERMALINK_LIMITS.maxValueLength)
      return err({ kind: "malformed", message: "One of the link's parameters is too long." });
    if (name === "continue_to") {
      if (continueTo !== undefined)
        return err({ kind: "ambiguous", message: "The link names more than one destination (continue_to)." });
      continueTo = value;
      continue;
    }
    const pointer = `/${name.replace(/^\/+/, "")}`;
    const rawTokens = pointer.slice(1).split("/");
    const root = unescapeToken(rawTokens[0] as string);
    if (root === undefined || !UCP_ROOTS.has(root)) {
      passThrough.push([name, value]);
      continue;
    }
    if (fields.has(pointer))
      // The field is not named: a page would show the link author's text on the store's domain.
      return err({ kind: "ambiguous", message: "The link sets the same field more than once." });
    const tokens = rawTokens.map(unescapeToken);
    fields.set(pointer, {
      pointer,
      tokens: tokens.every((t) => t !== undefined) ? (tokens as string[]) : undefined,
      value,
    });
  }
  return ok({ ...(continueTo !== undefined ? { continueTo } : {}), fields: [...fields.values()], passThrough });
}
