/**
 * RFC 9530 Content-Digest over the raw body bytes (UCP signatures §10.3: sha-256 is
 * mandatory, no JSON canonicalization). Other algorithms a sender lists are ignored, so a
 * header that carries only, say, sha-512 cannot be checked and is reported as unsupported.
 */
import { parseByteSequences, serializeByteSequence } from "./structured-fields";

export type DigestCheck = "ok" | "missing" | "mismatch" | "unsupported";

const encoder = new TextEncoder();

async function sha256(body: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  // The DOM and workers typings disagree on which Uint8Array is a BufferSource; both accept this.
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/** The Content-Digest header value for a body: `sha-256=:<base64>:`. Strings are hashed as UTF-8. */
export async function contentDigest(body: Uint8Array | string): Promise<string> {
  return `sha-256=${serializeByteSequence(await sha256(body))}`;
}

/**
 * Checks a received Content-Digest against the body. An absent or blank header is
 * "missing"; an unparseable one, or a sha-256 that differs, is "mismatch".
 */
export async function checkContentDigest(header: string | null, body: Uint8Array): Promise<DigestCheck> {
  if (header === null || header.trim() === "") return "missing";
  const parsed = parseByteSequences(header);
  if (!parsed.ok) return "mismatch";
  const claimed = parsed.value.get("sha-256");
  if (claimed === undefined) return "unsupported";
  const actual = await sha256(body);
  // The digest is public (not a secret), so an early-exit comparison leaks nothing.
  return claimed.length === actual.length && claimed.every((b, i) => b === actual[i]) ? "ok" : "mismatch";
}
