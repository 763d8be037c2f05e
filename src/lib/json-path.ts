/** Renders a zod-style issue path as the JSONPath UCP messages use (`$.line_items[0].quantity`). */
export function toJsonPath(path: ReadonlyArray<PropertyKey>, root = "$"): string {
  let out = root;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}
