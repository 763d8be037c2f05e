/**
 * create_checkout from a cart, owned by the cart (issue 27 item 2). UCP keeps one open
 * checkout per cart, returned again to every create; a completed checkout closes the cart
 * (one cart places at most one order, issue 10). The Worker reads and prices the cart, then
 * makes one call; the cart decides and makes the checkout, so a crash or a concurrent create
 * between the steps is the cart's to handle, not a stateless request's.
 *
 * The decision is a generation per key space (src/lib/ids.ts keySpace: authenticated and
 * anonymous callers never share a session): the checkout's id derives from (space, cart,
 * generation), so every create of that generation, concurrent or retried under any key,
 * lands on the same checkout object, whose create is first-write-wins. Only a closed
 * checkout moves its space on, by compare-and-set in the cart's transaction; the other
 * space keeps its own (before, one counter moved both, and a cancel in one space opened a
 * second checkout in the other). Carts made before keep their counter as every space's start.
 */
import type { CheckoutEnvelope } from "../../src/checkout/checkout-state";
import type { CheckoutBase, CheckoutInput } from "../../src/checkout/compute";
import { merchantConfig } from "../../src/config";
import { requestHash } from "../../src/lib/canonical-json";
import { handoffUrl } from "../../src/lib/handoff-token";
import { derivedId, keySpace } from "../../src/lib/ids";
import { callObject } from "../../src/lib/object-call";
import type { CheckoutCreate, CheckoutObject } from "../checkout-object";
import type { Migration } from "../shared/kernel";
import { tables } from "../shared/kernel";
import type { ObjectReply } from "../shared/object-reply";
import { type Caller, mayAct, recordedOwner } from "../shared/owner";

/** The cart's layout step for it: each key space's generation, once it moved past the cart's first. */
export const checkoutGenerations = (version: number): Migration =>
  tables(version, "each key space's checkout generation", [
    "CREATE TABLE IF NOT EXISTS checkout_generation (space TEXT PRIMARY KEY, generation INTEGER NOT NULL)",
  ]);

/** What the Worker sends: who asks, and the checkout's create body but for its id. */
export interface CartCheckoutCommand {
  readonly cartId: string;
  /** The caller; a buyer on the cart's hand-off page (`handoff`) acts for the cart's owner. */
  readonly caller: Caller;
  /** The Worker's clock, for the hand-off URL (one URL per session and hour). */
  readonly now: number;
  readonly envelope: CheckoutEnvelope;
  readonly input: CheckoutInput;
  readonly base: Omit<CheckoutBase, "id">;
  /**
   * The idempotency entry but its hash, which covers the checkout id the cart decides
   * (src/tools/object-reply.ts ledgerSeed; the same hash as a create sent to that id).
   */
  readonly idempotency?: { readonly key: string; readonly op: string; readonly payload: unknown };
  readonly ownerWebhookUrl?: string;
  readonly ownerWebhookVersion?: string;
}

/**
 * The checkout's own answer to its create; `not_found` for a caller the cart does not answer
 * or a cart gone; `ordered`: the cart's checkout is completed and holds its order.
 */
export type CartCheckoutReply = ObjectReply<{ kind: "ordered"; checkoutId: string }>;

/** What the flow needs of the cart object. */
export interface CartPorts {
  /** A read (writes nothing): the cart's owner check and whether the cart is there, then `body`. */
  read<T>(empty: T, body: (sql: SqlStorage) => T): T;
  transaction<T>(body: (sql: SqlStorage) => T): T;
  exists(): boolean;
  hasCart(now: number): boolean;
  readonly env: Env;
}

/** Generations tried before the last answer stands: a closed (or taken) one is passed once, rarely twice. */
const MAX_STEPS = 4;

export async function checkoutFromCart(command: CartCheckoutCommand, cart: CartPorts): Promise<CartCheckoutReply> {
  if (!cart.exists()) return { kind: "not_found" };
  const decided = cart.read(undefined, (sql) => {
    if (!mayAct(sql, command.caller) || !cart.hasCart(Date.now())) return undefined;
    const owner: Caller = command.caller.handoff
      ? { ...(recordedOwner(sql) ?? command.caller), handoff: true }
      : command.caller;
    return { owner, generation: generationOf(sql, keySpace(owner)) };
  });
  if (!decided) return { kind: "not_found" };
  const { owner } = decided;
  const space = keySpace(owner);
  const config = merchantConfig(cart.env);
  const checkouts = (id: string) => cart.env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;
  let generation = decided.generation;
  for (let step = 1; ; step++) {
    const id = await derivedId("chk", config.idSecret, space, `cart\n${command.cartId}\n${generation}`);
    const status = await callObject(() => checkouts(id).status());
    if (status === "completed") return { kind: "ordered", checkoutId: id };
    if (status !== "canceled" || step === MAX_STEPS) {
      const create = await createCommand(command, owner, id, config);
      const reply = await callObject<CartCheckoutReply>(async () => checkouts(id).create(create));
      // `taken`: made at this id by the other class of caller before the key spaces split.
      if (reply.kind !== "taken" || step === MAX_STEPS) return reply;
    }
    // Gone meanwhile (its alarm deleted it): a transaction would leave tables behind with no alarm.
    if (!cart.exists()) return { kind: "not_found" };
    const seen = generation;
    generation = cart.transaction((sql) => advance(sql, space, seen));
  }
}

async function createCommand(
  command: CartCheckoutCommand,
  owner: Caller,
  id: string,
  config: { origin: string; idSecret: string },
): Promise<CheckoutCreate> {
  const seed = command.idempotency;
  return {
    envelope: command.envelope,
    continueUrl: await handoffUrl(config.origin, config.idSecret, "checkout", id, command.now),
    caller: owner,
    input: command.input,
    idempotency: seed && { key: seed.key, hash: await requestHash(seed.op, id, seed.payload) },
    base: { ...command.base, id },
    ...(command.ownerWebhookUrl ? { ownerWebhookUrl: command.ownerWebhookUrl } : {}),
    ...(command.ownerWebhookVersion ? { ownerWebhookVersion: command.ownerWebhookVersion } : {}),
  };
}

/** The space's generation: its own row once it moved, else the cart's counter of before (0 for a new cart). */
function generationOf(sql: SqlStorage, space: string): number {
  const own = sql
    .exec<{ generation: number }>("SELECT generation FROM checkout_generation WHERE space = ?", space)
    .toArray()[0];
  if (own) return own.generation;
  return sql.exec<{ generation: number }>("SELECT generation FROM checkout_link").toArray()[0]?.generation ?? 0;
}

/** Past `seen`, once even when called concurrently (compare and set): the space's generation after. */
function advance(sql: SqlStorage, space: string, seen: number): number {
  const current = generationOf(sql, space);
  if (current !== seen) return current;
  sql.exec("INSERT OR REPLACE INTO checkout_generation (space, generation) VALUES (?, ?)", space, seen + 1);
  return seen + 1;
}
