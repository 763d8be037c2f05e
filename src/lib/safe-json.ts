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

/**
 * Whether `value` nests objects and arrays more than `max` levels deep. Iterative, so a
 * hostile document cannot overflow the stack here (JSON.parse itself does not recurse).
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof next !== "object" || next === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(next)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
