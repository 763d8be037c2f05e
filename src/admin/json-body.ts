/** The JSON body of an admin request, or the answer that refuses it (413 too large, 400 not JSON). */
import { readCapped } from "../lib/read-capped";
import { type AdminIssue, adminError } from "./api-error";

export type { AdminIssue };

export function invalid(error: "invalid_input" | "invalid_json", issues: ReadonlyArray<AdminIssue>): Response {
  return adminError(400, error, { issues });
}

export async function readJsonBody(request: Request, limit: number): Promise<{ body: unknown } | Response> {
  const text = await readCapped(request, limit);
  if (text === undefined) return adminError(413, "too_large", { message: `Bodies are at most ${limit} bytes.` });
  try {
    return { body: JSON.parse(text) };
  } catch {
    return invalid("invalid_json", [{ path: "$", message: "the body is not JSON" }]);
  }
}
