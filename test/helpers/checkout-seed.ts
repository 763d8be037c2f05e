/**
 * Comparing a seed's example reply with a real one. The seeds' example ids (`li_shoes`,
 * `dest_home`, `shipping_1`) are the example merchant's; ours are assigned by this merchant.
 * missingKeys() pairs array elements by id and silently skips an element whose id it cannot
 * find, so without alignment a seed line item would never be compared at all.
 */
import { payloadOf } from "./cart-seed";

// biome-ignore lint/suspicious/noExplicitAny: -- seed payloads are inspected structurally
type Json = any;

/**
 * The example with each array's first element given the id of its real counterpart (the
 * element with the same id, else the first by position), recursively: missingKeys() then
 * compares every element positionally and still requires the `id` key where the seed has one.
 */
export function alignIds(example: Json, actual: Json): Json {
  if (Array.isArray(example)) {
    if (!Array.isArray(actual) || example.length === 0 || actual.length === 0) return example;
    const [first, ...rest] = example;
    if (!isObject(first)) return example;
    const match = actual.find((a) => isObject(a) && a.id === first.id);
    const counterpart = match ?? actual[0];
    const aligned = alignIds(first, counterpart);
    // An `id: undefined` key still makes missingKeys() require `id` (and pair by position).
    const withId =
      match || !("id" in first) ? aligned : { ...aligned, id: isObject(counterpart) ? counterpart.id : undefined };
    return [withId, ...rest];
  }
  if (!isObject(example) || !isObject(actual)) return example;
  return Object.fromEntries(Object.entries(example).map(([k, v]) => [k, k in actual ? alignIds(v, actual[k]) : v]));
}

/**
 * The example reply's payload without the pre-2026-04-08 wrapper: seeds 002 and 003 nest the
 * resource under `structuredContent.checkout` / `.order`; 2026-04-08 returns it bare.
 */
export function unwrap(result: Json, wrapper: "checkout" | "order"): Json {
  const payload = payloadOf(result);
  return payload?.[wrapper] ?? payload;
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
