/**
 * Stripe's v1 API takes `application/x-www-form-urlencoded` bodies with bracketed keys, as the
 * `stripe` SDK writes them (stripe-node src/utils.ts `stringifyRequestData`): `metadata[k]=v`,
 * `payment_method_data[card][token]=tok_visa`, arrays as `expand[0]=x` (curl users write
 * `expand[]=x`, which Stripe also accepts). Values stay strings; each endpoint coerces its own.
 */
export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

/** `a[b][0]` → ["a", "b", "0"]; a key without brackets is one segment. */
function segments(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const rest = [...key.slice(open).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? "");
  return [key.slice(0, open), ...rest];
}

/** Nested params from the pairs; numeric or empty segments build arrays, like Stripe's parser. */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = segments(key);
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i] ?? "";
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1] ?? "");
      const key: string = Array.isArray(node) && part === "" ? String(node.length) : part;
      const slots = node as Record<string, FormValue>;
      if (last) {
        slots[key] = value;
        continue;
      }
      const existing: FormValue | undefined = slots[key];
      if (typeof existing === "object") {
        node = existing;
      } else {
        const created: FormObject | FormValue[] = nextIsIndex ? [] : {};
        slots[key] = created;
        node = created;
      }
    }
  }
  return root;
}

/**
 * A canonical text of the params, for the idempotency layer's "same parameters" test: key order
 * does not matter to Stripe (it compares parsed parameters), values and structure do.
 */
export function canonical(value: FormValue | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}
