/**
 * The part of Stripe's search query language (docs "Search query language") the store uses:
 * clauses `field:'value'` on status, currency, customer, amount (`amount>100` too) and
 * `metadata['key']:'value'`, joined by AND or by OR (Stripe refuses a mix). Anything else is
 * a 400 naming the query, so a client relying on more finds out here.
 */
import { invalidParam } from "./errors.ts";
import type { PaymentIntentRecord } from "./state.ts";

type Clause = (pi: PaymentIntentRecord) => boolean;

// Quoted values may escape a quote or backslash with a backslash (`'it\\'s'`), as Stripe's do.
const CLAUSE =
  /^(-)?(?:metadata\[(?:'([^']*)'|"([^"]*)")\]|(status|currency|customer|amount))(:|>=|<=|>|<)(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(\d+))$/;
const unquote = (s: string) => s.replace(/\\(.)/g, "$1");

function clause(text: string, query: string): Clause {
  const m = CLAUSE.exec(text.trim());
  if (!m)
    throw invalidParam("query", `The stand-in cannot parse this search query: ${query}`, "parameter_invalid_string");
  const [, negate, metaA, metaB, field, op, quotedA, quotedB, number] = m;
  const value = unquote(quotedA ?? quotedB ?? number ?? "");
  const key = metaA ?? metaB;
  const test: Clause = (pi) => {
    if (key !== undefined) return pi.metadata[key] === value;
    if (field === "amount") {
      const n = Number(value);
      return op === ">"
        ? pi.amount > n
        : op === "<"
          ? pi.amount < n
          : op === ">="
            ? pi.amount >= n
            : op === "<="
              ? pi.amount <= n
              : pi.amount === n;
    }
    if (op !== ":") return false;
    const actual = field === "status" ? pi.status : field === "currency" ? pi.currency : pi.customer;
    return actual === value;
  };
  return negate ? (pi) => !test(pi) : test;
}

export function searchPaymentIntents(all: PaymentIntentRecord[], query: string): PaymentIntentRecord[] {
  const hasAnd = / AND /.test(query);
  const hasOr = / OR /.test(query);
  if (hasAnd && hasOr) {
    throw invalidParam("query", "Queries may not mix AND and OR.", "parameter_invalid_string");
  }
  const clauses = query.split(hasOr ? / OR / : / AND /).map((c) => clause(c, query));
  return all.filter((pi) => (hasOr ? clauses.some((c) => c(pi)) : clauses.every((c) => c(pi))));
}
