/**
 * Every object's answer to the tools. `not_owner`: it exists but belongs to another platform;
 * sessions never say so (they answer `not_found`, shared/owner.ts), orders do (`unauthorized`,
 * seed 003). The objects own the type; src/tools/object-reply.ts maps it to the wire.
 */
export type ObjectReply =
  | { kind: "ok"; body: string }
  | { kind: "not_found" }
  | { kind: "not_owner" }
  | { kind: "conflict" };
