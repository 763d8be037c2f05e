/**
 * The idempotency key, checked once at the edge, before anything changes (spec-digest §9):
 *
 * - Form: the one key rule, src/lib/idempotency-key-rule.ts (1 to 128 visible ASCII
 *   characters; the console and the admin API check the same).
 * - Meta and header: when both are sent they must be the same key.
 * - Signed requests: for complete_checkout and cancel_checkout the key is part of what is
 *   signed (`idempotency-key` among the covered components), else a captured signature
 *   could be replayed under fresh keys, each a new charge attempt.
 */
import type { Principal } from "../auth/authenticate";
import { IDEMPOTENCY_KEY_RULE, isIdempotencyKey } from "../lib/idempotency-key-rule";
import { err, ok, type Result } from "../lib/result";
import { authError, invalidParams, type ProtocolError } from "../ucp/errors";

/** Tools whose signed requests must cover the key (checkout-mcp.md; spec-digest §10.3). */
const SIGNED_KEY_TOOLS: ReadonlySet<string> = new Set(["complete_checkout", "cancel_checkout"]);
const META_KEY = 'meta["idempotency-key"]';

export interface KeyInput {
  readonly tool: string;
  readonly required: boolean;
  /** The key normalizeCall found (meta, idempotency_key, or the header), unvalidated. */
  readonly key: unknown;
  readonly headers: Headers;
  readonly principal: Principal;
  /** Where the transport carries the key, as its errors name it (default `meta["idempotency-key"]`). */
  readonly carrier?: string;
}

export function checkIdempotencyKey(input: KeyInput): Result<string | undefined, ProtocolError> {
  const { key, tool } = input;
  const carrier = input.carrier ?? META_KEY;
  // A JSONPath only where the key travels in the arguments.
  const where = carrier === META_KEY ? { path: `$.${META_KEY}` } : undefined;
  if (key === undefined) {
    if (input.required) return err(invalidParams(`${tool} requires ${carrier}`, where));
    return ok(undefined);
  }
  if (!isIdempotencyKey(key)) {
    return err(invalidParams(`${carrier} must be ${IDEMPOTENCY_KEY_RULE} (a UUID, as the spec shows)`, where));
  }
  const header = input.headers.get("idempotency-key");
  if (header !== null && header !== key) {
    return err(invalidParams(`${carrier} and the Idempotency-Key header name different keys`, where));
  }
  const { principal } = input;
  if (principal.tier === "authenticated" && principal.via === "signature" && SIGNED_KEY_TOOLS.has(tool)) {
    if (header === null || !principal.signed.includes("idempotency-key")) {
      return err(
        authError(
          "signature_invalid",
          `A signed ${tool} must send its key in the Idempotency-Key header and cover idempotency-key in the signature`,
        ),
      );
    }
  }
  return ok(key);
}
