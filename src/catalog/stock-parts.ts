/**
 * The catalog's stock map ({variant id: units}) in parts (issue 28): one value held 49 MB at a
 * million products, past KV's 25 MiB value limit, and every isolate that priced a cart read
 * and kept all of it. A variant's level is in part `FNV-1a(id) mod parts`
 * (`<prefix>stock:<i>`); the manifest's `stock_parts` says how many, so a reader fetches only
 * the parts its variants are in. Both writers (the command-line load and the console's
 * background load) size the split from the variant count alone, which the console's load
 * keeps between its steps, so nothing else has to be stored.
 */

/** KV's limit on one value (25 MiB): a load writes nothing over it (assertValueFits). */
export const KV_VALUE_LIMIT = 25 * 1024 * 1024;

/**
 * Variants per part: ~200 KB a part with ids of ~30 characters (a cart's first read of a
 * part parses it in a millisecond or two), 2 MB with ids of 500 bytes, the longest a key holds.
 */
export const VARIANTS_PER_STOCK_PART = 4_096;

export function stockPartCount(variants: number, perPart = VARIANTS_PER_STOCK_PART): number {
  return Math.max(1, Math.ceil(variants / perPart));
}

/** The part holding a variant's level. */
export function stockPartOf(variantId: string, parts: number): number {
  if (parts <= 1) return 0;
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(variantId)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash % parts;
}

/** The stock map cut into `parts` JSON values, each checked against the value limit. */
export function stockPartValues(
  stock: Readonly<Record<string, number>>,
  parts: number,
  limit = KV_VALUE_LIMIT,
): string[] {
  const split: Array<Record<string, number>> = Array.from({ length: parts }, () => ({}));
  for (const [id, level] of Object.entries(stock)) {
    const part = split[stockPartOf(id, parts)];
    if (part) part[id] = level;
  }
  return split.map((part, i) => {
    const value = JSON.stringify(part);
    assertValueFits(`stock part ${i}`, value, limit);
    return value;
  });
}

/** UTF-8 bytes of a string without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export class ValueTooLargeError extends Error {}

/** Refuses a value KV would refuse, before the load writes anything of its version's switch. */
export function assertValueFits(what: string, value: string, limit = KV_VALUE_LIMIT): void {
  const bytes = value.length > limit / 4 ? utf8Bytes(value) : value.length;
  if (bytes > limit)
    throw new ValueTooLargeError(
      `${what} is ${bytes} bytes, over the ${limit}-byte limit of one KV value: the catalog was not switched`,
    );
}
