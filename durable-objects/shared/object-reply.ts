/**
 * Every object's answer to the tools and the console: the one reply type (issue 27). An
 * object that answers more names it in `Also` (the order's merchant changes add `invalid`).
 * `not_owner`: it exists but belongs to another platform; sessions never say so (they answer
 * `not_found`, shared/owner.ts), orders do (`unauthorized`, seed 003). `taken`: a create
 * landed on a session the other class of caller made (anonymous vs authenticated,
 * shared/owner.ts claimOwner); the caller's create goes to an id of its own. The objects own
 * the type; src/tools/object-reply.ts maps it to the wire.
 */
export type ObjectReply<Also extends { readonly kind: string } = never> =
  | { kind: "ok"; body: string }
  | { kind: "not_found" }
  | { kind: "not_owner" }
  | { kind: "conflict" }
  | { kind: "taken" }
  | Also;

/** An `ok` answer with `payload` as its JSON body (what the ledger records for a replay). */
export function okReply(payload: unknown): { kind: "ok"; body: string } {
  return { kind: "ok", body: JSON.stringify(payload) };
}
