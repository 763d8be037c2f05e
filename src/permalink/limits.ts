/**
 * The documented limits of the permalink endpoint (permalink.md §URL Budget: a Business MAY
 * enforce documented limits; at least 2,048 octets SHOULD be accepted). Past them a link is
 * refused with a 4xx page, never cut short: a shortened cart would be a different intent.
 */
export const PERMALINK_LIMITS = {
  /** The whole URL, in UTF-8 octets after encoding. */
  maxUrlOctets: 4096,
  /** Distinct items in the compact path. */
  maxItems: 50,
  /** Units of one item (the cart's own limit, schemas/ucp/cart.ts CART_LIMITS). */
  maxQuantity: 999,
  /** Query parameters, of every kind. */
  maxQueryParams: 50,
  /** A decoded query value. */
  maxValueLength: 512,
  /** An item identifier, decoded (the cart's item.id limit). */
  maxItemIdLength: 256,
} as const;

/** C0 controls, DEL or C1 controls: never in a token, a name or a value (permalink.md §Security Considerations). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}
