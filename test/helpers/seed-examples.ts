/**
 * Pulls the JSON examples out of a seed document (Markdown with ```json fences, some
 * indented under `=== "Request"` tabs) and pairs each request with the response after it.
 */
export interface SeedExample {
  readonly request: Record<string, unknown>;
  readonly response: Record<string, unknown> | undefined;
}

/**
 * Every JSON object that starts a line, fenced or not (seed 001 has bare blocks): parsed
 * by matching braces outside strings, kept when it parses.
 */
export function jsonBlocks(text: string): unknown[] {
  const blocks: unknown[] = [];
  const start = /^[ \t]*\{/gm;
  let match: RegExpExecArray | null = start.exec(text);
  while (match) {
    const open = match.index + match[0].length - 1;
    const end = matchingBrace(text, open);
    let parsed: unknown;
    if (end > 0) {
      try {
        parsed = JSON.parse(text.slice(open, end + 1));
      } catch {
        parsed = undefined;
      }
    }
    if (parsed !== undefined) {
      blocks.push(parsed);
      start.lastIndex = end + 1;
    }
    match = start.exec(text);
  }
  return blocks;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

export function requestExamples(markdown: string): SeedExample[] {
  const blocks = jsonBlocks(markdown) as Array<Record<string, unknown>>;
  const out: SeedExample[] = [];
  blocks.forEach((block, i) => {
    if (typeof block.method !== "string") return;
    const next = blocks[i + 1];
    const isReply = next && ("result" in next || "error" in next) && next.id === block.id;
    out.push({ request: block, response: isReply ? next : undefined });
  });
  return out;
}

/** The seed predates 2026-04-08 in a few field names; the schema's names win. */
const RENAMED: Record<string, string> = { input: "inputs", category: "categories" };

/** Keys of `example` (recursively, through the first element of arrays) missing from `actual`. */
export function missingKeys(example: unknown, actual: unknown, path = "$"): string[] {
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return [path];
    if (example.length === 0 || actual.length === 0) return [];
    const first = example[0];
    // Products and variants are matched by id where both carry one; otherwise position.
    const id = isObject(first) ? first.id : undefined;
    const counterpart = actual.find((a) => isObject(a) && a.id === id) ?? (id === undefined ? actual[0] : undefined);
    return counterpart === undefined ? [] : missingKeys(first, counterpart, `${path}[0]`);
  }
  if (!isObject(example)) return [];
  if (!isObject(actual)) return [path];
  const missing: string[] = [];
  for (const [key, value] of Object.entries(example)) {
    // The envelope's form changed across versions (capability arrays → maps); the official
    // schema, not the example, is its judge.
    if (path === "$" && key === "ucp") continue;
    const name = RENAMED[key] ?? key;
    if (!(name in actual)) missing.push(`${path}.${name}`);
    else missing.push(...missingKeys(value, actual[name], `${path}.${name}`));
  }
  return missing;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
