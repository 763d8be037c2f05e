/**
 * Merchant admin access: the ADMIN_TOKEN secret as a bearer token. No secret configured means
 * no admin surface at all (the routes answer 404, as if absent), never an open one.
 */
import { addressKey } from "../auth/rate-limit";

export type AdminAccess = "disabled" | "unauthorized" | "granted";

export async function adminAccess(request: Request, secret: string | undefined): Promise<AdminAccess> {
  if (!secret) return "disabled";
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "");
  if (!match?.[1]) return "unauthorized";
  return (await sameSecret(match[1], secret)) ? "granted" : "unauthorized";
}

/**
 * The one budget wrong admin tokens draw from, per client address: the console's sign-in form
 * and the Bearer JSON API both charge it, so neither is a way around the other's limit.
 */
export function adminFailureKey(request: Request): string {
  return `console-sign-in:${addressKey(request)}`;
}

/** Constant-time equality. Comparing SHA-256 digests gives equal lengths (timingSafeEqual
 * requires them) and keeps the token's length out of the timing too. */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}
