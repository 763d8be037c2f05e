/**
 * One endpoint's parameters, checked as Stripe checks them: a parameter the endpoint does not
 * take is `parameter_unknown` (so a client sending something Stripe would refuse fails here
 * too), integers and booleans are parsed from their form strings.
 */

import { invalidParam, missingParam, unknownParam } from "./errors.ts";
import { type FormObject, type FormValue, parseForm } from "./form.ts";

export class Params {
  constructor(
    readonly raw: FormObject,
    allowed: readonly string[],
  ) {
    for (const key of Object.keys(raw)) if (!allowed.includes(key)) throw unknownParam(key);
  }

  static async from(request: Request, allowed: readonly string[]): Promise<Params> {
    const url = new URL(request.url);
    // GET parameters travel in the query string, POST parameters in the form body (the SDK's way).
    const text = request.method === "GET" ? url.search.slice(1) : await request.text();
    return new Params(parseForm(text), allowed);
  }

  has(name: string): boolean {
    return this.raw[name] !== undefined;
  }

  string(name: string): string | undefined {
    const v = this.raw[name];
    if (v === undefined) return undefined;
    if (typeof v !== "string")
      throw invalidParam(name, `Invalid string: ${JSON.stringify(v)}`, "parameter_invalid_string");
    return v;
  }

  requiredString(name: string): string {
    const v = this.string(name);
    if (v === undefined || v === "") throw missingParam(name);
    return v;
  }

  integer(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw invalidParam(name, `Invalid integer: ${v}`, "parameter_invalid_integer");
    return Number(v);
  }

  boolean(name: string): boolean | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (v !== "true" && v !== "false") throw invalidParam(name, `Invalid boolean: ${v}`, "parameter_invalid_string");
    return v === "true";
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) {
      throw invalidParam(name, `Invalid ${name}: must be one of ${values.join(", ")}`, "parameter_invalid_string");
    }
    return v as T;
  }

  object(name: string): FormObject | undefined {
    const v = this.raw[name];
    if (v === undefined) return undefined;
    if (typeof v !== "object" || Array.isArray(v))
      throw invalidParam(name, `Invalid object`, "parameter_invalid_object");
    return v;
  }

  /** `metadata[k]=v` as Stripe stores it: strings, an empty value unsets the key. */
  metadata(current: Record<string, string> = {}): Record<string, string> {
    const raw = this.raw.metadata;
    if (raw === undefined) return current;
    if (raw === "") return {};
    if (typeof raw !== "object" || Array.isArray(raw))
      throw invalidParam("metadata", "Invalid object", "parameter_invalid_object");
    const next = { ...current };
    for (const [k, v] of Object.entries(raw)) {
      if (typeof v !== "string") throw invalidParam(`metadata[${k}]`, "Invalid string", "parameter_invalid_string");
      if (k.length > 40)
        throw invalidParam(`metadata[${k}]`, "Metadata keys can be at most 40 characters.", "parameter_invalid_string");
      if (v.length > 500)
        throw invalidParam(
          `metadata[${k}]`,
          "Metadata values can be at most 500 characters.",
          "parameter_invalid_string",
        );
      if (v === "") delete next[k];
      else next[k] = v;
    }
    if (Object.keys(next).length > 50)
      throw invalidParam("metadata", "Metadata can have at most 50 keys.", "parameter_invalid_object");
    return next;
  }

  /** `expand[0]=latest_charge` → ["latest_charge"]. */
  expand(): string[] {
    const v: FormValue | undefined = this.raw.expand;
    if (v === undefined) return [];
    const list = Array.isArray(v) ? v : [v];
    return list.filter((x): x is string => typeof x === "string");
  }
}
