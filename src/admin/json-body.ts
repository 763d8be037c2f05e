/** The JSON body of an admin request, or the answer that refuses it (413 too large, 400 not JSON). */
import { jsonResponse } from "../lib/http";
import { readCapped } from "../lib/read-capped";

export type AdminIssue = { readonly path: string; readonly message: string };

export function invalid(error: string, issues: ReadonlyArray<AdminIssue>): Response {
  return jsonResponse({ error, issues }, 400);
}

export async function readJsonBody(request: Request, limit: number): Promise<{ body: unknown } | Response> {
  const text = await readCapped(request, limit);
  if (text === undefined)
    return jsonResponse({ error: "too_large", message: `Bodies are at most ${limit} bytes.` }, 413);
  try {
    return { body: JSON.parse(text) };
  } catch {
    return invalid("invalid_json", [{ path: "$", message: "the body is not JSON" }]);
  }
}
