/**
 * What the object-backed tools (carts, checkouts, orders) share: the idempotency ledger
 * entry they send to their object, and the mapping of an object's reply to the wire.
 */
import type { ObjectReply } from "../../durable-objects/shared/object-reply";
import type { Caller } from "../../durable-objects/shared/owner";
import { canonicalJson, requestHash } from "../lib/canonical-json";
import { type HandoffKind, handoffUrl } from "../lib/handoff-token";
import { keyedDigest } from "../lib/ids";
import { callObject } from "../lib/object-call";
import { RawJson } from "../lib/raw-json";
import { err, ok, type Result } from "../lib/result";
import { type ProtocolError, unavailable } from "../ucp/errors";
import type { ToolContext, UcpPayload } from "./types";

// The objects own their reply type (they never import the tool layer); this module maps it.
export type { ObjectReply };

const IDEMPOTENCY_CONFLICT: ProtocolError = {
  rpcCode: -32000,
  httpStatus: 409,
  message: "Idempotency key reused with different payload",
};

/** Who is calling, as the objects' owner check needs it (tool-call.ts bound the profile to the credential). */
export function callerOf(ctx: ToolContext): Caller {
  const caller = { profile: ctx.meta.profile, authenticated: ctx.principal.tier === "authenticated" };
  return ctx.handoff === true ? { ...caller, handoff: true } : caller;
}

/** The buyer's hand-off URL for a session: a sealed token, never the API id. */
export function continueUrl(ctx: ToolContext, kind: Exclude<HandoffKind, "order">, id: string): Promise<string> {
  return handoffUrl(ctx.config.origin, ctx.config.idSecret, kind, id, ctx.now);
}

/**
 * Scoped by operation; the fingerprint covers the target id and the payload, not meta. A
 * payment credential in the payload (a PAN, a token) enters it only as a keyed digest: the
 * stored hash must not be a plain SHA-256 over a card number, which could be searched for.
 */
export async function ledgerEntry(op: string, key: string, id: string, payload: unknown, secret: string) {
  const seed = await ledgerSeed(op, key, payload, secret);
  return { key: seed.key, hash: await requestHash(op, id, seed.payload) };
}

/** The same entry for an object that decides the target id itself: it hashes with that id (requestHash). */
export async function ledgerSeed(op: string, key: string, payload: unknown, secret: string) {
  return { key: `${op}:${key}`, op, payload: await sealCredentials(payload, secret) };
}

async function sealCredentials(value: unknown, secret: string): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => sealCredentials(v, secret)));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    out[name] =
      name === "credential" && inner !== null && typeof inner === "object"
        ? { sealed: await keyedDigest(secret, canonicalJson(inner)) }
        : await sealCredentials(inner, secret);
  }
  return out;
}

/**
 * The object's JSON text goes out as-is; a failing object means "retry", never a 500: tried
 * again here first when it never reached the object's code (lib/object-call.ts), then 503.
 * `notOwner` is the answer to another platform's caller, `notFound` unless the resource's
 * tool says otherwise.
 */
export async function objectReply(
  call: () => Promise<ObjectReply>,
  notFound: () => UcpPayload,
  notOwner: () => UcpPayload = notFound,
): Promise<Result<UcpPayload, ProtocolError>> {
  let outcome: ObjectReply;
  try {
    outcome = await callObject(call);
  } catch (e) {
    // Storage or the object unavailable: fail closed and let the client retry with its key.
    console.error("durable object call failed", e instanceof Error ? e.message : e);
    return err(unavailable());
  }
  // Exhaustive: a new reply kind does not compile until it has a wire form here.
  switch (outcome.kind) {
    case "ok":
      return ok(new RawJson(outcome.body));
    case "not_found":
      return ok(notFound());
    case "not_owner":
      return ok(notOwner());
    // `taken` reaches here only if an id of the caller's own was taken too (never, short of a break of the HMAC).
    case "conflict":
    case "taken":
      return err(IDEMPOTENCY_CONFLICT);
    default:
      return outcome satisfies never;
  }
}
