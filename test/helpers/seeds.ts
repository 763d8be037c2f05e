/**
 * The seed documents (Markdown with JSON examples), found by test/helpers/ucp-material.plugin.ts.
 * A seed suite runs as `describe.skipIf(!seed)(...)`: absent seeds skip it, and the run says so.
 */
import { seeds } from "virtual:ucp-material";

/** Seed `number` ("000" …), or undefined when the seed documents are not available. */
export function seedDocument(number: string): string | undefined {
  return seeds[number];
}
