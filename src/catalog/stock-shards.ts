/**
 * Stock split into STOCK_SHARDS groups of variants (docs/inventory.md "Stock shards"): a
 * variant's count lives in the InventoryObject `stock:<n>` its id hashes to, so completions of
 * different products rarely wait on one object. This module is the coordinator a multi-line
 * reservation needs once its lines live in different objects: one call per shard, carrying all
 * of that shard's lines (atomic inside it, as the store-wide object always was); it runs in its caller (the checkout object completing an
 * attempt, the order object releasing, the Worker asking for levels) and keeps nothing.
 *
 * All-or-nothing without a two-phase protocol: every shard reserves under the same id at once;
 * if any refuses, the ones that took units give them back and forget the id (`abandon`), so a
 * retry starts clean. Meanwhile those units were held for one round trip: another buyer may be
 * told they are gone for that moment (never the reverse), which is the price of no oversell.
 */
import { callObject } from "../lib/object-call";
import type { InputIssue } from "./stock-change";
import { INVENTORY_NAME, stockShardName } from "./stock-keys";
import {
  parseReserve,
  type ReleaseOutcome,
  type ReserveLine,
  type ReserveOutcome,
  refusedReserve,
  type ShortLine,
  type StockLevel,
} from "./stock-reserve";

type Inventory = Pick<Env, "INVENTORY">;
type Answer = Awaited<ReturnType<ReturnType<Env["INVENTORY"]["getByName"]>["reserve"]>>;

const shard = (env: Inventory, name: string) => env.INVENTORY.getByName(name);

/**
 * Whether the store-wide object said it counts nothing. Permanent: since the split it takes no
 * reservations or restocks, so once empty it stays empty and this isolate stops asking it.
 */
let legacyEmpty = false;

/** Items grouped by the shard of their variant, in first-seen order. */
function byShard<T>(items: readonly T[], variantOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = stockShardName(variantOf(item));
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

/**
 * Reserves every line or none, one call per shard with all its lines, under one id. A repeat with the same id
 * replays on every shard (replayed: true when all did). Answers as one object would: every
 * short line in one out_of_stock, input issues against the lines as given.
 */
export async function reserveStock(
  env: Inventory,
  reservationId: string,
  lines: ReserveLine[],
  levels: Record<string, StockLevel>,
  catalogVersion: string,
): Promise<ReserveOutcome> {
  const parsed = parseReserve(reservationId, lines, levels, catalogVersion);
  if (!parsed.ok) return refusedReserve(reservationId, parsed.error);
  const request = parsed.value;
  const id = request.reservationId;
  const groups = [...byShard(request.lines, (l) => l.variantId)];
  const settled = await Promise.allSettled(
    groups.map(([name, own]) =>
      callObject(async () =>
        shard(env, name).reserve(
          id,
          own,
          Object.fromEntries(own.map((l) => [l.variantId, request.levels.get(l.variantId) ?? null])),
          request.catalogVersion,
        ),
      ),
    ),
  );
  const answers = settled.map((s, i) => ({ name: groups[i]?.[0] ?? "", s }));
  const held = answers.flatMap(({ name, s }) =>
    s.status === "fulfilled" && s.value.ok ? [{ name, replayed: s.value.replayed }] : [],
  );
  if (held.length === answers.length) return { ok: true, reservationId: id, replayed: held.every((h) => h.replayed) };
  const refused = answers.flatMap(({ s }) => (s.status === "fulfilled" && !s.value.ok ? [s.value] : []));
  // A conflict means this id already holds other lines: what replayed belongs to that first
  // reservation and stays. Otherwise a shard without the id proves the whole never succeeded,
  // so every hold under it (fresh, or left by a run that died mid-way) is given back.
  const conflict = refused.some((r) => r.reason === "conflict");
  await abandon(
    env,
    id,
    held.filter((h) => !(conflict && h.replayed)).map((h) => h.name),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return combine(id, refused);
}

/** The one answer for all refusals: conflict first, then input issues, then every short line. */
function combine(id: string, refused: readonly Exclude<Answer, { ok: true }>[]): ReserveOutcome {
  if (refused.some((r) => r.reason === "conflict")) return { ok: false, reservationId: id, reason: "conflict" };
  const issues: InputIssue[] = refused.flatMap((r) => (r.reason === "invalid_input" ? r.issues : []));
  if (issues.length > 0) return { ok: false, reservationId: id, reason: "invalid_input", issues };
  const short: ShortLine[] = refused.flatMap((r) => (r.reason === "out_of_stock" ? r.short : []));
  return { ok: false, reservationId: id, reason: "out_of_stock", short };
}

/** Gives back a failed reservation's holds; a failure throws, so the caller's retry comes back here. */
async function abandon(env: Inventory, id: string, shards: readonly string[]): Promise<void> {
  await Promise.all(shards.map((name) => callObject(async () => shard(env, name).abandon(id))));
}

/**
 * Returns a reservation's units on the shards of these variants, which hold every reservation
 * made since stock was sharded. Only when none of them knows it is the store-wide object asked
 * (a reservation from before the split): releases (declines, cancellations, refunds) no longer
 * queue on that one object (issue 27). Released once anywhere is released; a failure throws,
 * for the caller to retry.
 */
export async function releaseStock(
  env: Inventory,
  reservationId: string,
  variantIds: readonly string[],
): Promise<ReleaseOutcome> {
  const names = [...byShard([...new Set(variantIds)], (v) => v).keys()];
  const release = (name: string) => callObject(async () => shard(env, name).release(reservationId));
  const answers = await Promise.all(names.map(release));
  if (answers.every((a) => !a.released && a.reason === "not_found")) answers.push(await release(INVENTORY_NAME));
  if (answers.some((a) => a.released)) return { released: true };
  const spent = answers.some((a) => !a.released && a.reason === "already_released");
  return { released: false, reason: spent ? "already_released" : "not_found" };
}

/**
 * Units a reservation would find now, per variant: one read per shard, in parallel. Variants
 * their shard has not counted yet (never sold since the split) are then asked of the
 * store-wide object in one read, which is what the shard would start from; once it said it
 * counts nothing, they are the catalog's levels, as a shard's first reservation would take.
 */
export async function stockLevelsNow(
  env: Inventory,
  variantIds: readonly string[],
  catalogLevels: Readonly<Record<string, StockLevel>>,
  catalogVersion: string,
): Promise<{ levels: Record<string, StockLevel>; restocked: string[] }> {
  const ids = [...new Set(variantIds)].slice(0, 1000);
  const given = (some: readonly string[]) =>
    Object.fromEntries(
      some.flatMap((id) => (Object.hasOwn(catalogLevels, id) ? [[id, catalogLevels[id] ?? null]] : [])),
    );
  const answers: Array<{ levels: Record<string, StockLevel>; restocked: string[]; uncounted?: string[] }> =
    await Promise.all(
      [...byShard(ids, (id) => id)].map(([name, own]) =>
        callObject(async () => shard(env, name).levels(own, given(own), catalogVersion)),
      ),
    );
  const uncounted = answers.flatMap((a) => a.uncounted ?? []);
  if (uncounted.length > 0 && !legacyEmpty) {
    const old = await callObject(async () =>
      shard(env, INVENTORY_NAME).levels(uncounted, given(uncounted), catalogVersion),
    );
    if (old.counts === false) legacyEmpty = true;
    answers.push(old);
  } else if (uncounted.length > 0) answers.push({ levels: given(uncounted), restocked: [] });
  // fromEntries defines own properties, so an id such as "__proto__" stays data.
  return {
    levels: Object.fromEntries(answers.flatMap((a) => Object.entries(a.levels))),
    restocked: answers.flatMap((a) => a.restocked),
  };
}

/**
 * The completion's and the order's view of stock (completion-steps.ts StockPort): reservations
 * and releases across the shards of these variants (the attempt's or the order's lines).
 */
export function stockPort(env: Inventory, variantIds: readonly string[]) {
  return {
    reserve: (id: string, lines: ReserveLine[], levels: Record<string, StockLevel>, version: string) =>
      reserveStock(env, id, lines, levels, version),
    release: (id: string) => releaseStock(env, id, variantIds),
  };
}
