/**
 * The merchant's trust settings ([vars.TRUST] in wrangler.toml, docs/trust.md): which tools
 * need an authenticated platform, how old a signature may be, and the rate-limit period the
 * [[ratelimits]] bindings use (the bindings cannot tell the Worker their own period, and
 * `retry_after` must state it). Parsed once per isolate; a bad setting fails loudly, because
 * a typo must never open a tool that was meant to be closed.
 */
import * as z from "zod";
import { toJsonPath } from "../lib/json-path";
import { parseUntrustedJson } from "../lib/safe-json";
import { StoreMisconfigured } from "../lib/store-misconfigured";

export type TrustTier = "anonymous" | "authenticated";

export interface TrustConfig {
  /** Tools an anonymous agent is refused. */
  readonly authenticatedTools: ReadonlySet<string>;
  readonly signatureMaxAgeSeconds: number;
  readonly rateLimitPeriodSeconds: number;
}

/** Spec: order data MUST be authenticated; placing an order in the merchant's name should be. */
export const DEFAULT_AUTHENTICATED_TOOLS = ["complete_checkout", "get_order"] as const;

const TrustSchema = z.strictObject({
  authenticated_tools: z
    .array(z.string().regex(/^[a-z_]{1,64}$/, "expected a tool name, e.g. complete_checkout"))
    .max(32)
    .optional(),
  signature_max_age_seconds: z.number().int().min(10).max(86_400).optional(),
  rate_limit_period_seconds: z.union([z.literal(10), z.literal(60)]).optional(),
});

let cached: { raw: unknown; config: TrustConfig } | undefined;

export function trustConfig(env: { TRUST?: unknown }): TrustConfig {
  if (cached && cached.raw === env.TRUST) return cached.config;
  const config = parseTrustConfig(env.TRUST);
  cached = { raw: env.TRUST, config };
  return config;
}

export function parseTrustConfig(raw: unknown): TrustConfig {
  const result = readTrust(raw);
  if (!result.ok) throw new StoreMisconfigured(result.problems);
  const t = result.value;
  return {
    authenticatedTools: new Set(t.authenticated_tools ?? DEFAULT_AUTHENTICATED_TOOLS),
    signatureMaxAgeSeconds: t.signature_max_age_seconds ?? 300,
    rateLimitPeriodSeconds: t.rate_limit_period_seconds ?? 60,
  };
}

/** What `npm run check:config` reports for TRUST: the problems parseTrustConfig would throw. */
export function trustConfigProblems(raw: unknown): string[] {
  const result = readTrust(raw);
  return result.ok ? [] : result.problems;
}

function readTrust(
  raw: unknown,
): { ok: true; value: z.output<typeof TrustSchema> } | { ok: false; problems: string[] } {
  let value: unknown = raw ?? {};
  if (typeof value === "string") {
    const parsed = parseUntrustedJson(value);
    if (!parsed.ok) return { ok: false, problems: ["TRUST: not valid JSON"] };
    value = parsed.value;
  }
  const result = TrustSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.map((i) => `${toJsonPath(i.path, "TRUST")}: ${i.message}`) };
}
