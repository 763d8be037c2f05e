/**
 * Authority binding (2026-08-25 overview §Derivation algorithm): a platform drops any
 * service, capability or payment handler whose `schema` host, labels reversed, is not its
 * name or a label-aligned prefix of it. The discovery build uses this to say which entries
 * of the store's own profile a conforming platform would drop (a `localhost` store's test
 * handler, for one: single-label hosts never bind, digest §6.13).
 */

/** Why `schemaUrl` does not bind `name`, or undefined when it does. */
export function authorityProblem(name: string, schemaUrl: string | undefined): string | undefined {
  if (schemaUrl === undefined) return "no schema";
  if (!URL.canParse(schemaUrl)) return `schema ${schemaUrl} is not a URL`;
  const url = new URL(schemaUrl);
  if (url.protocol !== "https:") return `schema ${schemaUrl} is not https`;
  if (url.username || url.password) return `schema ${schemaUrl} has userinfo`;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const labels = host.split(".");
  if (labels.length < 2 || /^[\d.]+$/.test(host) || host.startsWith("[")) {
    return `schema host ${host} is not a registered domain of two labels or more`;
  }
  const prefix = labels.reverse().join(".");
  if (name === prefix || name.startsWith(`${prefix}.`)) return undefined;
  return `schema host ${host} (${prefix}) is not ${name} nor a label-aligned prefix of it`;
}

type Registry = Readonly<Record<string, ReadonlyArray<{ readonly schema?: string }>>>;

/** "payment_handlers com.example.pay: …" for every entry of a profile's registries that does not bind. */
export function unboundEntries(ucp: {
  readonly services?: Registry;
  readonly capabilities?: Registry;
  readonly payment_handlers?: Registry;
}): string[] {
  const problems: string[] = [];
  for (const kind of ["services", "capabilities", "payment_handlers"] as const) {
    for (const [name, entries] of Object.entries(ucp[kind] ?? {})) {
      for (const entry of entries) {
        const problem = authorityProblem(name, entry.schema);
        if (problem) problems.push(`${kind} ${name}: ${problem}`);
      }
    }
  }
  return problems;
}
