/**
 * Checks the `[{id, quantity}]` a merchant names in an event or adjustment against the
 * order's lines. Pure; each caller adds its own per-line rule (how many units it may cover).
 */
import type { LineCount, OrderLine, OrderState } from "./order-state";

/** A problem with the request, at a JSONPath into its body. */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

/** Unknown or repeated line ids, then whatever `rule` says about each named line. */
export function lineIssues(
  order: OrderState,
  lines: readonly LineCount[],
  rule: (line: OrderLine, quantity: number) => string | undefined,
): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const [i, ref] of lines.entries()) {
    const line = order.line_items.find((l) => l.id === ref.id);
    if (!line) {
      issues.push({ path: `$.line_items[${i}].id`, message: `the order has no line ${ref.id}` });
    } else if (seen.has(ref.id)) {
      // One entry per line keeps "how many units" unambiguous.
      issues.push({ path: `$.line_items[${i}].id`, message: `line ${ref.id} is named twice` });
    } else {
      const problem = rule(line, ref.quantity);
      if (problem) issues.push({ path: `$.line_items[${i}].quantity`, message: problem });
    }
    seen.add(ref.id);
  }
  return issues;
}
