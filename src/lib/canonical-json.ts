/**
 * Canonical JSON (object keys sorted, recursively) and its SHA-256: the fingerprint of a
 * request for the idempotency ledger, so key order on the wire does not matter.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The idempotency ledger's fingerprint of a request: its operation, target id and payload
 * (credentials in it already sealed). One definition, for the tools and for an object that
 * decides the target id itself (durable-objects/cart/checkout.ts).
 */
export function requestHash(op: string, id: string, payload: unknown): Promise<string> {
  return sha256Hex(canonicalJson({ op, id, payload }));
}
