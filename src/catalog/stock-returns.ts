/**
 * An order's refunded units back to stock (a refund with restock, issue 26 item 1), the way a
 * cancellation releases: through the order's reservation, on the stock shard of each variant
 * (InventoryObject.returnUnits), keyed so a retried effect restocks nothing twice. A
 * reservation from before the split lives in the store-wide object: asked when no shard knows
 * the reservation. Keeps nothing; a failure throws, for the caller's retry.
 */
import { callObject } from "../lib/object-call";
import { INVENTORY_NAME, stockShardName } from "./stock-keys";

type Inventory = Pick<Env, "INVENTORY">;

/** A variant and the units to give back (a return's request, and what it gave). */
export interface ReturnLine {
  readonly variantId: string;
  readonly quantity: number;
}

/** InventoryObject.returnUnits' answer (durable-objects/shared/reservation-returns.ts). */
export type ReturnOutcome =
  | { readonly returned: true; readonly lines: readonly ReturnLine[]; readonly replayed: boolean }
  | { readonly returned: false; readonly reason: "not_found" | "already_released" | "invalid_input" };

export type RestockOutcome =
  | { readonly restocked: true; readonly lines: readonly ReturnLine[] }
  | { readonly restocked: false; readonly reason: "not_found" | "already_released" | "invalid_input" };

export async function returnStock(
  env: Inventory,
  reservationId: string,
  lines: readonly ReturnLine[],
  key: string,
): Promise<RestockOutcome> {
  const groups = new Map<string, ReturnLine[]>();
  for (const line of lines) {
    const name = stockShardName(line.variantId);
    groups.set(name, [...(groups.get(name) ?? []), line]);
  }
  const ask = (name: string, own: ReturnLine[]) =>
    callObject(async () => env.INVENTORY.getByName(name).returnUnits(reservationId, own, key));
  const answers = await Promise.all([...groups].map(([name, own]) => ask(name, own)));
  if (answers.every((a) => !a.returned && a.reason === "not_found")) {
    const legacy = await ask(INVENTORY_NAME, [...lines]);
    return legacy.returned ? { restocked: true, lines: legacy.lines } : { restocked: false, reason: legacy.reason };
  }
  const given = answers.flatMap((a) => (a.returned ? a.lines : []));
  const refused = answers.find((a) => !a.returned);
  if (given.length === 0 && refused && !refused.returned) return { restocked: false, reason: refused.reason };
  return { restocked: true, lines: given };
}
