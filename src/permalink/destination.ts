/**
 * Where a permalink sends the browser (permalink.md §Destination Preference, §Redirect
 * Resolution): `continue_to` validated in the specification's five steps, else the default;
 * non-UCP parameters passed through unless sensitive, and selected attribution rewritten to
 * its plain name. Buyer values and credentials are never put on the destination. Pure.
 */
import { hasControlCharacter } from "./limits";

/**
 * A path that starts with two slashes or backslashes, counting `%2F` and `%5C`: a browser (or
 * a server that decodes them) reads `//host/...` as another host, not a path on this one.
 */
function networkPathLike(pathname: string): boolean {
  return /^[/\\][/\\]/.test(pathname.replace(/%2f/gi, "/").replace(/%5c/gi, "\\"));
}

/**
 * Steps 2–5 on a value already percent-decoded once (query.ts is step 1): a single leading
 * `/`, no scheme, backslash, whitespace or control character; resolved against the endpoint's
 * origin with dot segments removed; same-origin; re-encoded. Undefined = use the default.
 * The leading `//` is checked again after resolving: `/.//evil.example` and `/a/..//evil.example`
 * only become `//evil.example` once their dot segments are removed.
 * The permalink endpoint itself is refused too, so one link never chains into another.
 */
export function validContinueTo(decoded: string, origin: string, endpointPath: string): string | undefined {
  if (!decoded.startsWith("/") || decoded.startsWith("//")) return undefined;
  if (/[\\\s]/u.test(decoded) || hasControlCharacter(decoded)) return undefined;
  if (/[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(decoded)) return undefined;
  let url: URL;
  let base: URL;
  try {
    base = new URL(origin);
    url = new URL(decoded, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin || networkPathLike(url.pathname)) return undefined;
  if (url.pathname === endpointPath || url.pathname.startsWith(`${endpointPath}/`)) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return hasControlCharacter(path) ? undefined : path;
}

/** Attribution the destination may see, as its plain analytics name (`attribution/utm_source` → `utm_source`). */
const FORWARDED_ATTRIBUTION: ReadonlySet<string> = new Set([
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "ref",
]);

/** Names of credentials, secrets and personal data (permalink.md §Privacy): dropped, never echoed. */
const SENSITIVE_NAME =
  /token|secret|passw|pwd|session|cookie|auth|bearer|api[_-]?key|credential|card|cvc|cvv|^pan$|mandate|otp|signature|^sig$|^code$|^key$|email|phone|^name$|first_name|last_name|address/i;

/** A value that is an email address or a card-number-like run of digits. */
function sensitiveValue(value: string): boolean {
  return /@/.test(value) || /\d(?:[ -]?\d){11,18}/.test(value);
}

export function forwardedParams(
  passThrough: ReadonlyArray<readonly [string, string]>,
  attribution: ReadonlyMap<string, string>,
): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of passThrough) {
    if (!SENSITIVE_NAME.test(name) && !sensitiveValue(value)) out.push([name, value]);
  }
  // An explicit parameter of the same name wins over a rewritten one, whatever their order.
  for (const [name, value] of attribution) {
    if (FORWARDED_ATTRIBUTION.has(name) && !sensitiveValue(value) && !out.some(([n]) => n === name))
      out.push([name, value]);
  }
  return out;
}

/**
 * The absolute Location: the store's origin, the destination path, and the forwarded parameters.
 * The path is appended to the origin, never resolved against it: resolving `//host/x` would
 * give another host, appending gives a path on this one.
 */
export function locationOf(origin: string, path: string, params: ReadonlyArray<readonly [string, string]>): string {
  const base = new URL(origin).origin;
  const url = new URL(`${base}${path.startsWith("/") ? path : "/"}`);
  for (const [name, value] of params) url.searchParams.append(name, value);
  return url.origin === base ? url.href : `${base}/`;
}
