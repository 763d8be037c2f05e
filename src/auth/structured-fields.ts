/**
 * The slice of RFC 8941 Structured Fields that HTTP Message Signatures needs: Dictionaries
 * of inner lists (Signature-Input) and of byte sequences (Signature, Content-Digest), and
 * the inner-list serialization RFC 9421 §2.3 signs as `@signature-params`. Inputs are
 * attacker-controlled: parsing is strict, linear and capped, and returns a failure value
 * instead of throwing. Decimals, dates and display strings are refused (nothing here uses them).
 */
import { err, ok, type Result } from "../lib/result";

export type ParamValue = string | number | boolean;
/** Parameters in wire order (RFC 9421 signs them in the order the signer wrote them). */
export type Params = Readonly<Record<string, ParamValue>>;
export interface SignatureInputEntry {
  readonly components: readonly string[];
  readonly params: Params;
}

export const MAX_HEADER_CHARS = 8192;
export const MAX_INNER_LIST_ITEMS = 32;
const MAX_MEMBERS = 16;
const MAX_PARAMS = 16;

type Bare =
  | { readonly t: "string" | "token"; readonly v: string }
  | { readonly t: "integer"; readonly v: number }
  | { readonly t: "boolean"; readonly v: boolean }
  | { readonly t: "bytes"; readonly v: Uint8Array };
type ParsedParams = Map<string, Bare>;
interface Item {
  readonly value: Bare;
  readonly params: ParsedParams;
}
type Member = Item | { readonly list: readonly Item[]; readonly params: ParsedParams };

// Internal only: lets the recursive-descent parser bail out from any depth; every exported
// function catches it and returns a Result.
class SfError extends Error {}

const KEY = /^[a-z*][a-z0-9_.*-]*$/;
const TOKEN_CHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function parseDictionary(input: string): Map<string, Member> {
  if (input.length > MAX_HEADER_CHARS) throw new SfError(`header longer than ${MAX_HEADER_CHARS} characters`);
  // Manual trim: a regex like / +$/ backtracks quadratically over long runs of spaces.
  let from = 0;
  let to = input.length;
  while (from < to && input.charAt(from) === " ") from++;
  while (to > from && input.charAt(to - 1) === " ") to--;
  const s = input.slice(from, to);
  let i = 0;
  const fail = (what: string): never => {
    throw new SfError(`${what} at offset ${i}`);
  };
  const skip = (chars: string) => {
    while (i < s.length && chars.includes(s.charAt(i))) i++;
  };

  const key = (): string => {
    const start = i;
    if (!/[a-z*]/.test(s.charAt(i))) fail("expected a lowercase key");
    while (i < s.length && /[a-z0-9_.*-]/.test(s.charAt(i))) i++;
    return s.slice(start, i);
  };
  const bare = (): Bare => {
    const c = s.charAt(i);
    if (c === '"') {
      let out = "";
      for (i++; i < s.length; i++) {
        const ch = s.charAt(i);
        if (ch === '"') {
          i++;
          return { t: "string", v: out };
        }
        if (ch === "\\") {
          const next = s.charAt(++i);
          if (next !== '"' && next !== "\\") fail("invalid escape in string");
          out += next;
        } else if (ch < " " || ch > "~") fail("invalid character in string");
        else out += ch;
      }
      return fail("unterminated string");
    }
    if (c === ":") {
      const end = s.indexOf(":", i + 1);
      if (end < 0) fail("unterminated byte sequence");
      const b64 = s.slice(i + 1, end);
      i = end + 1;
      return { t: "bytes", v: decodeBase64(b64) ?? fail("invalid base64 in byte sequence") };
    }
    if (c === "?") {
      const v = s.charAt(i + 1);
      if (v !== "0" && v !== "1") fail("invalid boolean");
      i += 2;
      return { t: "boolean", v: v === "1" };
    }
    if (c === "-" || /[0-9]/.test(c)) {
      const m = /^-?[0-9]{1,15}/.exec(s.slice(i, i + 17));
      if (!m) return fail("invalid integer");
      i += m[0].length;
      if (/[0-9.]/.test(s.charAt(i))) fail("decimals and integers over 15 digits are not supported");
      return { t: "integer", v: Number(m[0]) };
    }
    if (/[A-Za-z*]/.test(c)) {
      const start = i;
      for (i++; i < s.length && TOKEN_CHAR.test(s.charAt(i)); i++);
      return { t: "token", v: s.slice(start, i) };
    }
    return fail("unsupported or missing value");
  };
  const params = (): ParsedParams => {
    const out: ParsedParams = new Map();
    while (s.charAt(i) === ";") {
      i++;
      skip(" ");
      const k = key();
      let v: Bare = { t: "boolean", v: true };
      if (s.charAt(i) === "=") {
        i++;
        v = bare();
      }
      if (out.has(k)) fail(`duplicate parameter ${quote(k)}`);
      if (out.size >= MAX_PARAMS) fail("too many parameters");
      out.set(k, v);
    }
    return out;
  };
  const item = (): Item => ({ value: bare(), params: params() });
  const member = (): Member => {
    if (s.charAt(i) !== "(") return item();
    i++;
    const list: Item[] = [];
    for (;;) {
      skip(" ");
      if (s.charAt(i) === ")") {
        i++;
        return { list, params: params() };
      }
      if (list.length >= MAX_INNER_LIST_ITEMS) fail(`more than ${MAX_INNER_LIST_ITEMS} items in a list`);
      list.push(item());
      const c = s.charAt(i);
      if (c !== " " && c !== ")") fail("expected a space or ) in a list");
    }
  };

  const dict = new Map<string, Member>();
  while (i < s.length) {
    const k = key();
    let m: Member;
    if (s.charAt(i) === "=") {
      i++;
      m = member();
    } else m = { value: { t: "boolean", v: true }, params: params() };
    // Stricter than RFC 8941 (which keeps the last): a repeated label is ambiguous, so refuse it.
    if (dict.has(k)) fail(`duplicate key ${quote(k)}`);
    if (dict.size >= MAX_MEMBERS) fail("too many members");
    dict.set(k, m);
    skip(" \t");
    if (i >= s.length) break;
    if (s.charAt(i) !== ",") fail("expected a comma");
    i++;
    skip(" \t");
    if (i >= s.length) fail("trailing comma");
  }
  return dict;
}

/** Clips attacker-supplied text for an error message so messages stay short. */
export function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Clips and quotes (escaping control characters) attacker-supplied text for an error message. */
export function quote(text: string, max = 40): string {
  return JSON.stringify(clip(text, max));
}

function guarded<T>(run: () => T): Result<T, string> {
  try {
    return ok(run());
  } catch (e) {
    if (e instanceof SfError) return err(e.message);
    throw e;
  }
}

/** Parses Signature-Input: every member must be an inner list of component-name strings. */
export function parseSignatureInput(header: string): Result<Map<string, SignatureInputEntry>, string> {
  return guarded(() => {
    const out = new Map<string, SignatureInputEntry>();
    for (const [label, m] of parseDictionary(header)) {
      if (!("list" in m)) throw new SfError(`signature ${quote(label)} is not an inner list`);
      const components = m.list.map((it) => {
        if (it.value.t !== "string")
          throw new SfError(`signature ${quote(label)} lists a component that is not a string`);
        // Component parameters (;sf, ;key, ;bs, ;req, ;tr) change the value signed; none are supported.
        if (it.params.size > 0) throw new SfError(`signature ${quote(label)} uses component parameters (unsupported)`);
        return it.value.v;
      });
      const params: Record<string, ParamValue> = Object.create(null);
      for (const [k, v] of m.params) {
        if (v.t === "token" || v.t === "bytes") throw new SfError(`parameter ${quote(k)} has an unsupported type`);
        params[k] = v.v;
      }
      out.set(label, { components, params });
    }
    return out;
  });
}

/** Parses a Dictionary whose members are all byte sequences (Signature, Content-Digest); parameters are ignored. */
export function parseByteSequences(header: string): Result<Map<string, Uint8Array>, string> {
  return guarded(() => {
    const out = new Map<string, Uint8Array>();
    for (const [k, m] of parseDictionary(header)) {
      if ("list" in m || m.value.t !== "bytes") throw new SfError(`member ${quote(k)} is not a byte sequence`);
      out.set(k, m.value.v);
    }
    return out;
  });
}

/** RFC 9421 §2.3: the serialized inner list that is both the Signature-Input member and `@signature-params`. */
export function serializeInnerList(items: readonly string[], params: Params): string {
  const list = items.map(serializeString).join(" ");
  let out = `(${list})`;
  for (const [k, v] of Object.entries(params)) {
    if (!KEY.test(k)) throw new TypeError(`invalid structured-field key: ${k}`);
    if (v === true) out += `;${k}`;
    else if (v === false) out += `;${k}=?0`;
    else if (typeof v === "string") out += `;${k}=${serializeString(v)}`;
    else if (Number.isSafeInteger(v) && Math.abs(v) <= 999_999_999_999_999) out += `;${k}=${v}`;
    else throw new TypeError(`parameter ${k} must be an integer`);
  }
  return out;
}

export function serializeString(value: string): string {
  if (!/^[ -~]*$/.test(value)) throw new TypeError("structured-field strings must be printable ASCII");
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

export function serializeByteSequence(bytes: Uint8Array): string {
  return `:${encodeBase64(bytes)}:`;
}

export function isKey(value: string): boolean {
  return value.length <= 64 && KEY.test(value);
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function decodeBase64(text: string): Uint8Array | undefined {
  // atob is forgiving about missing padding; RFC 8941 lets parsers be, and the length is checked by callers.
  if (!BASE64.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
