/**
 * Page requests draw from the anonymous budget of their client address (the same binding as
 * anonymous agents, under its own key prefix so browsing and agent calls do not starve each
 * other). A failing limiter serves the page: the store stays up.
 */
import { addressKey } from "../auth/rate-limit";

export async function pageBudgetSpent(request: Request, env: Env): Promise<boolean> {
  const binding = env.RATE_LIMIT_ANONYMOUS as { limit(o: { key: string }): Promise<{ success: boolean }> } | undefined;
  if (!binding) return false;
  try {
    const { success } = await binding.limit({ key: `page:${addressKey(request)}` });
    return !success;
  } catch (e) {
    console.error("rate limiter unavailable", e instanceof Error ? e.message : e);
    return false;
  }
}
