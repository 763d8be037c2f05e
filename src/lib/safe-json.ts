/**
 * JSON parsing for untrusted bodies. `__proto__` keys are dropped so that no later
 * spread or assignment can reach Object.prototype (JSON.parse itself keeps them as own keys).
 */
export function parseUntrustedJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    // The reviver costs a call per value; only bodies that could carry the key pay it.
    return { ok: true, value: text.includes("__proto__") ? JSON.parse(text, dropProtoKeys) : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
