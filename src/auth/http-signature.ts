/**
 * RFC 9421 HTTP Message Signatures as UCP profiles them (spec-digest §10.3): ECDSA keys from
 * JWKs, raw r‖s signatures, Content-Digest (RFC 9530) binding the body. Owns the signature
 * base, signing and verification; key discovery (profiles, caching, trust) is the caller's
 * job through `resolveKey`. Verification returns failure values with developer-readable
 * text that quotes at most a few dozen characters of what the sender wrote.
 */
import { err, ok, type Result } from "../lib/result";
import { checkContentDigest, contentDigest } from "./content-digest";
import { curveOf, HTTP_SIG_ALGS, importVerifyKey, type SigningKey } from "./signing-keys";
import {
  clip,
  isKey,
  type Params,
  parseByteSequences,
  parseSignatureInput,
  quote,
  serializeByteSequence,
  serializeInnerList,
} from "./structured-fields";

export type SignatureParams = Params;
export type MessageSource =
  | { readonly method: string; readonly url: string; readonly headers: Headers }
  | { readonly status: number; readonly headers: Headers };
export type SignatureFailureCode =
  | "signature_missing"
  | "signature_invalid"
  | "key_not_found"
  | "digest_mismatch"
  | "algorithm_unsupported";
export interface SignatureFailure {
  readonly code: SignatureFailureCode;
  readonly content: string;
}
export interface VerifiedSignature {
  readonly keyid: string;
  readonly label: string;
  readonly components: readonly string[];
  readonly created?: number;
}
export interface SignOptions {
  /** Unix seconds; defaults to now. */
  readonly created?: number;
  /** Overrides the default component list (used verbatim, in order). */
  readonly components?: readonly string[];
  readonly label?: string;
}
export interface VerifyOptions {
  /** Current time in ms. */
  readonly now: number;
  /** Oldest acceptable `created`; omitted means no age limit (responses only). */
  readonly maxAgeSeconds?: number;
  /** Components required on top of the spec's defaults (never instead of them). */
  readonly requiredComponents?: readonly string[];
}
export type KeyResolver = (keyid: string) => Promise<JsonWebKey | undefined>;
type Body = string | Uint8Array | null;

export const DEFAULT_LABEL = "sig1";
const CLOCK_SKEW_SECONDS = 60;
const MAX_KEYID_CHARS = 256;
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;
// Headers signed when present, in this order (spec-digest §10.3 table, §7.5 webhook headers).
const OPTIONAL_SIGNED_HEADERS = ["ucp-agent", "idempotency-key", "webhook-id", "webhook-timestamp"];
const encoder = new TextEncoder();

const fail = (code: SignatureFailureCode, content: string): Result<never, SignatureFailure> => err({ code, content });
const bytesOf = (body: Body): Uint8Array =>
  typeof body === "string" ? encoder.encode(body) : (body ?? new Uint8Array());

function componentValue(name: string, source: MessageSource): Result<string, string> {
  if (!name.startsWith("@")) {
    if (!HEADER_NAME.test(name)) return err(`component ${quote(name)} is not a lowercase header name`);
    const value = source.headers.get(name);
    // Headers.get already joins repeated fields with ", " and strips surrounding whitespace.
    return value === null ? err(`covered header ${quote(name)} is absent`) : ok(value.trim());
  }
  if ("status" in source)
    return name === "@status" ? ok(String(source.status)) : err(`${quote(name)} is not a response component`);
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    return err("the request URL is not absolute");
  }
  switch (name) {
    case "@method":
      return ok(source.method.toUpperCase());
    case "@authority":
      // WHATWG URL already lowercases the host and drops the scheme's default port.
      return ok(url.host);
    case "@scheme":
      return ok(url.protocol.slice(0, -1));
    case "@path":
      return ok(url.pathname || "/");
    case "@query":
      return ok(url.search || "?");
    case "@request-target":
      return ok(`${url.pathname || "/"}${url.search}`);
    case "@target-uri":
      return ok(`${url.protocol}//${url.host}${url.pathname}${url.search}`);
    default:
      return err(`derived component ${quote(name)} is not supported`);
  }
}

/** The RFC 9421 §2.5 signature base: one `"name": value` line per component, then `@signature-params`. */
export function signatureBase(
  components: readonly string[],
  params: SignatureParams,
  source: MessageSource,
): Result<string, SignatureFailure> {
  if (new Set(components).size !== components.length) return fail("signature_invalid", "A component is covered twice");
  const lines: string[] = [];
  for (const name of components) {
    const value = componentValue(name, source);
    if (!value.ok) return fail("signature_invalid", `Cannot build the signature base: ${value.error}`);
    lines.push(`"${name}": ${value.value}`);
  }
  lines.push(`"@signature-params": ${serializeInnerList(components, params)}`);
  return ok(lines.join("\n"));
}

async function sign(source: MessageSource, components: readonly string[], key: SigningKey, opts: SignOptions) {
  const label = opts.label ?? DEFAULT_LABEL;
  if (!isKey(label)) throw new TypeError(`invalid signature label: ${label}`);
  // keyid only: UCP derives the algorithm from the key, so `alg` stays out of Signature-Input.
  const params = { created: opts.created ?? Math.floor(Date.now() / 1000), keyid: key.kid };
  const base = signatureBase(components, params, source);
  if (!base.ok) throw new Error(`cannot sign: ${base.error.content}`);
  const { hash } = curveOf(key.alg);
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash }, key.privateKey, encoder.encode(base.value));
  // One signer per message: replace rather than append to any earlier signature.
  source.headers.set("Signature-Input", `${label}=${serializeInnerList(components, params)}`);
  source.headers.set("Signature", `${label}=${serializeByteSequence(new Uint8Array(signature))}`);
}

/** Signs an outgoing request in place: sets Content-Digest (for a non-empty body), Signature-Input and Signature. */
export async function signRequest(
  req: { method: string; url: string; headers: Headers; body: Body },
  key: SigningKey,
  opts: SignOptions = {},
): Promise<void> {
  const body = bytesOf(req.body);
  if (body.length > 0) req.headers.set("Content-Digest", await contentDigest(body));
  const components = opts.components ?? [
    "@method",
    "@authority",
    "@path",
    ...(hasQuery(req.url) ? ["@query"] : []),
    ...bodyComponents(req.headers, body),
    ...OPTIONAL_SIGNED_HEADERS.filter((h) => req.headers.has(h)),
  ];
  await sign(req, components, key, opts);
}

/** Signs an outgoing response in place: `@status`, plus content-digest and content-type for a body. */
export async function signResponse(
  res: { status: number; headers: Headers; body: Body },
  key: SigningKey,
  opts: SignOptions = {},
): Promise<void> {
  const body = bytesOf(res.body);
  if (body.length > 0) res.headers.set("Content-Digest", await contentDigest(body));
  await sign(res, opts.components ?? ["@status", ...bodyComponents(res.headers, body)], key, opts);
}

const hasQuery = (url: string): boolean => URL.canParse(url) && new URL(url).search !== "";

// content-type is covered only when sent: requiring coverage of an absent header could never verify.
function bodyComponents(headers: Headers, body: Uint8Array): string[] {
  if (body.length === 0) return [];
  return headers.has("content-type") ? ["content-digest", "content-type"] : ["content-digest"];
}

/**
 * Verifies a request signed per UCP §10.3. When several signatures are present only the
 * first label in Signature-Input is verified (UCP messages carry one signer). A signature
 * without `created` is accepted: the spec's own examples omit it, and replay protection is
 * delegated to idempotency keys. `resolveKey` errors propagate (they are infrastructure, not
 * signature, failures).
 */
export function verifyRequest(
  req: { method: string; url: string; headers: Headers; body: Uint8Array },
  resolveKey: KeyResolver,
  opts: VerifyOptions & { readonly maxAgeSeconds: number },
): Promise<Result<VerifiedSignature, SignatureFailure>> {
  const required = ["@method", "@authority", "@path"];
  if (hasQuery(req.url)) required.push("@query");
  required.push(...bodyComponents(req.headers, req.body));
  if (req.headers.has("ucp-agent")) required.push("ucp-agent");
  return verify(req, req.body, resolveKey, opts, required);
}

/** Verifies a signed response against one known key (platform side, and tests). */
export function verifyResponse(
  res: { status: number; headers: Headers; body: Uint8Array },
  key: JsonWebKey,
  opts: Partial<VerifyOptions> = {},
): Promise<Result<VerifiedSignature, SignatureFailure>> {
  const kid = (key as { kid?: unknown }).kid;
  const resolve: KeyResolver = async (keyid) => (kid === undefined || kid === keyid ? key : undefined);
  const required = ["@status", ...bodyComponents(res.headers, res.body)];
  return verify(res, res.body, resolve, { ...opts, now: opts.now ?? Date.now() }, required);
}

async function verify(
  source: MessageSource,
  body: Uint8Array,
  resolveKey: KeyResolver,
  opts: VerifyOptions,
  defaults: readonly string[],
): Promise<Result<VerifiedSignature, SignatureFailure>> {
  const inputHeader = source.headers.get("signature-input")?.trim() ?? "";
  const signatureHeader = source.headers.get("signature")?.trim() ?? "";
  if (inputHeader === "" || signatureHeader === "") {
    const absent = [inputHeader === "" && "Signature-Input", signatureHeader === "" && "Signature"].filter(Boolean);
    return fail(
      "signature_missing",
      `Message is not signed: missing ${absent.join(" and ")} header${absent.length > 1 ? "s" : ""}`,
    );
  }
  const inputs = parseSignatureInput(inputHeader);
  if (!inputs.ok) return fail("signature_invalid", `Malformed Signature-Input header: ${inputs.error}`);
  const signatures = parseByteSequences(signatureHeader);
  if (!signatures.ok) return fail("signature_invalid", `Malformed Signature header: ${signatures.error}`);
  for (const label of signatures.value.keys())
    if (!inputs.value.has(label))
      return fail("signature_invalid", `Signature ${quote(label)} has no Signature-Input entry`);
  for (const label of inputs.value.keys())
    if (!signatures.value.has(label))
      return fail("signature_invalid", `Signature-Input ${quote(label)} has no Signature entry`);
  const first = inputs.value.entries().next();
  if (first.done) return fail("signature_missing", "Message is not signed: Signature-Input lists no signature");
  const [label, { components, params }] = first.value;
  const signature = signatures.value.get(label) ?? new Uint8Array();

  const { keyid, alg, created, expires } = params;
  if (typeof keyid !== "string" || keyid === "" || keyid.length > MAX_KEYID_CHARS)
    return fail("signature_invalid", `Signature ${quote(label)} has no usable keyid parameter`);
  // keyid parsed as an sf-string, so it is printable ASCII: shown bare, as in the spec's messages.
  const kid = `kid=${clip(keyid, 60)}`;
  if (alg !== undefined && (typeof alg !== "string" || !HTTP_SIG_ALGS.includes(alg)))
    return fail(
      "algorithm_unsupported",
      `Signature alg ${quote(String(alg))} is not supported; use ES256 (P-256) keys`,
    );
  const time = checkTimes(created, expires, opts);
  if (!time.ok) return time;

  if (body.length > 0 && !components.includes("content-digest"))
    return fail("digest_mismatch", "The message has a body but the signature does not cover content-digest");
  if (body.length > 0 && !source.headers.has("content-digest"))
    return fail("digest_mismatch", "The message has a body but no Content-Digest header");
  const missing = [...defaults, ...(opts.requiredComponents ?? [])].filter((c) => !components.includes(c));
  if (missing.length > 0) return fail("signature_invalid", `The signature must also cover: ${missing.join(", ")}`);
  const base = signatureBase(components, params, source);
  if (!base.ok) return base;

  const jwk = await resolveKey(keyid);
  if (jwk === undefined) return fail("key_not_found", `No signing key ${kid} in the signer's profile`);
  const key = await importVerifyKey(jwk);
  if (!key.ok) return key;
  if (alg !== undefined && alg !== key.value.httpSigAlg)
    return fail(
      "algorithm_unsupported",
      `Signature alg ${quote(String(alg))} does not match key ${kid} (${key.value.alg})`,
    );

  if (components.includes("content-digest")) {
    const digest = await checkContentDigest(source.headers.get("content-digest"), body);
    if (digest === "unsupported") return fail("digest_mismatch", "Content-Digest must include sha-256");
    if (digest !== "ok") return fail("digest_mismatch", "Content-Digest does not match the body");
  }
  if (signature.length !== key.value.signatureBytes)
    return fail(
      "signature_invalid",
      `Signature for key ${kid} is ${signature.length} bytes; ${key.value.alg} needs ${key.value.signatureBytes}-byte raw r‖s (not DER)`,
    );
  const valid = await crypto.subtle
    .verify(
      { name: "ECDSA", hash: key.value.hash },
      key.value.key,
      signature as Uint8Array<ArrayBuffer>,
      encoder.encode(base.value),
    )
    .catch(() => false);
  if (!valid) return fail("signature_invalid", `Signature verification failed for key ${kid}`);
  return ok({ keyid, label, components, ...(typeof created === "number" ? { created } : {}) });
}

function checkTimes(created: unknown, expires: unknown, opts: VerifyOptions): Result<void, SignatureFailure> {
  const nowSeconds = opts.now / 1000;
  if (created !== undefined) {
    if (typeof created !== "number" || created < 0)
      return fail("signature_invalid", "Signature created must be a unix time");
    if (created > nowSeconds + CLOCK_SKEW_SECONDS)
      return fail("signature_invalid", "Signature created in the future (check the signer's clock)");
    if (opts.maxAgeSeconds !== undefined && nowSeconds - created > opts.maxAgeSeconds)
      return fail("signature_invalid", `Signature expired: created more than ${opts.maxAgeSeconds} s ago`);
  }
  if (expires !== undefined) {
    if (typeof expires !== "number") return fail("signature_invalid", "Signature expires must be a unix time");
    if (expires <= nowSeconds) return fail("signature_invalid", "Signature expired (its expires time has passed)");
  }
  return ok(undefined);
}
