/**
 * The store's policies (returns, shipping, privacy, terms…) from the POLICIES var, a JSON
 * string or a TOML array of tables. One list feeds the buyer pages (footer and checkout) and,
 * at 2026-08-25, the `policies[]` of cart, checkout, catalog and order answers
 * (src/ucp/policies.ts). Problems are named by var and path: `POLICIES[1].description: …`.
 */
import * as z from "zod";
import { toJsonPath } from "../lib/json-path";
import { isHttpsOrLocalUrl } from "../lib/public-url";
import { parseUntrustedJson } from "../lib/safe-json";

export interface StorePolicy {
  /** Reverse-domain policy type (common/types/policy.json): well-known, or under the store's domain. */
  readonly type: string;
  /** The link's text on the pages, e.g. "Returns". */
  readonly title: string;
  /** Plain-text summary: policy.json requires a description on every policy. */
  readonly description: string;
  /** The merchant's full document, if there is one; otherwise the store's own page for it. */
  readonly url?: string;
  /** The store's own page for it is `/policies/<slug>`. */
  readonly slug: string;
}

export const POLICY_PAGE_PATH = "/policies/";

/**
 * Short names a merchant may write as `type`. Returns and warranty are the well-known UCP
 * types; UCP defines none for shipping, privacy or terms, so those are custom types under the
 * store's own reversed host (overview §Policy types: "in its own domain").
 */
const SHORT_TYPES: Readonly<Record<string, { title: string; wellKnown?: string }>> = {
  returns: { title: "Returns", wellKnown: "dev.ucp.shopping.policy.return" },
  warranty: { title: "Warranty", wellKnown: "dev.ucp.shopping.policy.warranty" },
  shipping: { title: "Shipping" },
  privacy: { title: "Privacy" },
  terms: { title: "Terms" },
};

/** common/types/reverse_domain_name.json's pattern. */
const REVERSE_DOMAIN = /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$/;

const MAX_POLICIES = 10;

const PolicyUrl = z.string().refine(isHttpsOrLocalUrl, {
  error: (i) => `expected an https URL of the full policy, got ${JSON.stringify(i.input)}`,
});

const PolicyEntry = z.strictObject({
  type: z
    .string()
    .max(128)
    .refine((t) => t in SHORT_TYPES || REVERSE_DOMAIN.test(t), {
      error: (i) =>
        `expected one of ${Object.keys(SHORT_TYPES).join(", ")} or a reverse-domain type such as "com.example.policy.price_match", got ${JSON.stringify(i.input)}`,
    }),
  title: z.string().trim().min(1).max(60).optional(),
  description: z
    .string({ error: "expected the policy's summary as text (UCP requires a description)" })
    .trim()
    .min(1, "expected the policy's summary as text (UCP requires a description)")
    .max(2000),
  url: PolicyUrl.optional(),
});

const PoliciesSchema = z.array(PolicyEntry).max(MAX_POLICIES);

type Parsed = { ok: true; policies: StorePolicy[] } | { ok: false; problems: string[] };

/**
 * The store's reversed host (shop.example.com → com.example.shop). A host that makes no
 * reverse-domain name (an IP address: local development and the tests) gets `localhost`.
 */
function ownNamespace(origin: string): string {
  try {
    const reversed = new URL(origin).hostname.split(".").reverse().join(".");
    return REVERSE_DOMAIN.test(`${reversed}.policy`) ? reversed : "localhost";
  } catch {
    return "localhost";
  }
}

/** POLICIES as the store's policies; absent or "" is none. `origin` names the store's own types. */
export function parseStorePolicies(raw: unknown, origin: string): Parsed {
  let value: unknown = raw === undefined || raw === "" ? [] : raw;
  if (typeof value === "string") {
    const parsed = parseUntrustedJson(value);
    if (!parsed.ok) return { ok: false, problems: ["POLICIES: not valid JSON"] };
    value = parsed.value;
  }
  const result = PoliciesSchema.safeParse(value);
  if (!result.success)
    return {
      ok: false,
      problems: result.error.issues.map((i) => `${toJsonPath(i.path, "POLICIES")}: ${i.message}`),
    };
  const problems: string[] = [];
  const own = ownNamespace(origin);
  const policies: StorePolicy[] = [];
  for (const [i, entry] of result.data.entries()) {
    const short = SHORT_TYPES[entry.type];
    let type = entry.type;
    if (short) type = short.wellKnown ?? `${own}.policy.${entry.type}`;
    if (!short && !entry.title) {
      problems.push(`POLICIES[${i}].title: a policy of your own type needs a title (the link's text)`);
      continue;
    }
    // Same-type policies that all apply to the whole response would tie (overview §Precedence: MUST NOT).
    if (policies.some((p) => p.type === type)) {
      problems.push(`POLICIES[${i}].type: a second policy of type ${type}; give each type one entry`);
      continue;
    }
    policies.push({
      type,
      title: entry.title ?? (short?.title as string),
      description: entry.description,
      ...(entry.url ? { url: entry.url } : {}),
      slug: entry.type,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policies };
}

/** The problems of POLICIES in these vars (merchant-vars.ts reports them with the other vars). */
export function policyVarProblems(vars: Readonly<Record<string, unknown>>): string[] {
  const origin = typeof vars.MERCHANT_ORIGIN === "string" ? vars.MERCHANT_ORIGIN : "http://localhost:8787";
  const parsed = parseStorePolicies(vars.POLICIES, origin);
  return parsed.ok ? [] : parsed.problems;
}

/** The store's policies, or none when POLICIES is bad (merchantConfig refuses to serve then anyway). */
export function storePolicies(raw: unknown, origin: string): readonly StorePolicy[] {
  const parsed = parseStorePolicies(raw, origin);
  return parsed.ok ? parsed.policies : [];
}

/** Where a buyer reads a policy: the merchant's document, else the store's own page. */
export function policyHref(policy: StorePolicy): string {
  return policy.url ?? `${POLICY_PAGE_PATH}${policy.slug}`;
}
