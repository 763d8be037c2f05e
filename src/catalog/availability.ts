/**
 * Live availability laid over the catalog: each variant's stock shard publishes its sell-out or
 * restock to KV (`availability:<variant id>`, its state in the key's metadata), over what the
 * store-wide object published before stock was sharded (catalog:availability, kv-layout.ts); search, lookup and get_product read it through a
 * short per-isolate cache, so the `available` filter and the variants shown follow the stock
 * within seconds without a catalog load. Carts and checkouts ask the object itself (pricing.ts).
 */

import type { Product, Variant } from "../../schemas/ucp/product";
import { SharedLoad } from "../lib/shared-load";
import type { PartialSnapshot } from "./catalog-d1";
import { type CatalogSnapshot, getProducts, REFRESH_JOIN_MS } from "./kv-catalog";
import { type AvailabilityDoc, KV_KEYS, type VariantAvailability } from "./kv-layout";
import type { HydratedIndex } from "./search-engine";
import type { IndexVariant } from "./search-index";
import { stockVersion } from "./stock-keys";

/** How stale search's availability may be on one isolate (the issue allows seconds). */
export const AVAILABILITY_REFRESH_MS = 2_000;

export interface LiveAvailability {
  /** Variant ids the inventory counts at zero now. */
  readonly soldOut: ReadonlySet<string>;
  /** Variant ids a merchant restocked that have units again. */
  readonly restocked: ReadonlySet<string>;
}

const NONE: LiveAvailability = { soldOut: new Set(), restocked: new Set() };

let cached: { doc: AvailabilityDoc | null; checkedAt: number } | undefined;
const reads = new SharedLoad<AvailabilityDoc | null>(REFRESH_JOIN_MS);
/** The last overlaid snapshot, so one index copy serves every request until something changes. */
let overlaid: { base: CatalogSnapshot; doc: AvailabilityDoc | null; live: LiveSnapshot } | undefined;

export interface LiveSnapshot extends CatalogSnapshot {
  readonly live: LiveAvailability;
}

/** The catalog with the inventory's sell-outs and restocks applied to variants' availability. */
export async function liveSnapshot(kv: KVNamespace, snapshot: CatalogSnapshot, now: number): Promise<LiveSnapshot> {
  const doc = await availabilityDoc(kv, now);
  if (overlaid && overlaid.base === snapshot && overlaid.doc === doc) return overlaid.live;
  const live = forCatalog(doc, stockVersion(snapshot.manifest));
  const result = { ...snapshot, index: overlayIndex(snapshot.index, live), live };
  overlaid = { base: snapshot, doc, live: result };
  return result;
}

/** The published states of these variants in D1 (search_live), counted from this load or later. */
export async function liveFromD1(
  db: D1Database,
  catalogVersion: string,
  variantIds: readonly string[],
): Promise<LiveAvailability> {
  if (variantIds.length === 0) return NONE;
  const rows = await db
    .prepare("SELECT variant_id, s FROM search_live WHERE variant_id IN (SELECT value FROM json_each(?)) AND v >= ?")
    .bind(JSON.stringify(variantIds), catalogVersion)
    .all<{ variant_id: string; s: string }>()
    .then((r) => r.results)
    // No table yet (no shard published since the migration): nothing is overridden.
    .catch(() => []);
  const soldOut = new Set(rows.filter((r) => r.s === "sold_out").map((r) => r.variant_id));
  const restocked = new Set(rows.filter((r) => r.s === "restocked").map((r) => r.variant_id));
  return { soldOut, restocked };
}

/** Entries counted from an older load than the current one are void: that load restated them. */
export function forCatalog(doc: AvailabilityDoc | null, catalogVersion: string): LiveAvailability {
  if (!doc) return NONE;
  const current = (entries: Readonly<Record<string, string>> | undefined) =>
    new Set(Object.entries(entries ?? {}).flatMap(([id, version]) => (version >= catalogVersion ? [id] : [])));
  return { soldOut: current(doc.sold_out), restocked: current(doc.restocked) };
}

/** A copy of the index whose affected documents carry the live flag; untouched ones are shared. */
export function overlayIndex(index: HydratedIndex, live: LiveAvailability): HydratedIndex {
  if (live.soldOut.size === 0 && live.restocked.size === 0) return index;
  const docs = [...index.docs];
  for (const id of [...live.soldOut, ...live.restocked]) {
    const ref = index.variantRefs.get(id);
    const doc = ref ? docs[ref.doc] : undefined;
    if (!ref || !doc || doc.v[ref.variant]?.[0] !== id) continue;
    const available = live.soldOut.has(id) ? 0 : 1;
    docs[ref.doc] = {
      ...doc,
      v: doc.v.map((v, i) => (i === ref.variant ? ([v[0], v[1], v[2], available] as IndexVariant) : v)),
    };
  }
  return { ...index, docs };
}

/**
 * getProducts, with live availability when the snapshot carries it (liveSnapshot). A catalog
 * searched on D1 takes its variants' states from search_live instead, the table search filters
 * on, so a variant search no longer offers is never shown as available here.
 */
export async function liveProducts(
  kv: KVNamespace,
  snapshot: CatalogSnapshot | LiveSnapshot,
  ids: readonly string[],
  db?: D1Database,
): Promise<Map<string, Product>> {
  // A snapshot of a D1 catalog's named products (catalog-d1.ts) reads its own version's
  // documents and carries their live states already.
  const partial = "documents" in snapshot ? (snapshot as PartialSnapshot) : undefined;
  const products = partial ? await partial.documents(ids) : await getProducts(kv, ids);
  const variantIds = [...products.values()].flatMap((p) => p.variants.map((v) => v.id));
  const live = partial
    ? partial.live
    : db && snapshot.manifest.search
      ? await liveFromD1(db, stockVersion(snapshot.manifest), variantIds)
      : "live" in snapshot
        ? snapshot.live
        : undefined;
  if (!live || (live.soldOut.size === 0 && live.restocked.size === 0)) return products;
  return new Map([...products].map(([id, product]) => [id, withLiveAvailability(product, live)]));
}

/** The product as a buyer should see it now: sold-out and restocked variants say so. */
export function withLiveAvailability<P extends Product>(product: P, live: LiveAvailability): P {
  if (!product.variants.some((v) => live.soldOut.has(v.id) || live.restocked.has(v.id))) return product;
  return { ...product, variants: product.variants.map((v) => liveVariant(v, live)) };
}

export function liveVariant<V extends Variant>(variant: V, live: LiveAvailability): V {
  if (live.soldOut.has(variant.id))
    return { ...variant, availability: { ...variant.availability, available: false, status: "out_of_stock" } };
  if (live.restocked.has(variant.id))
    return { ...variant, availability: { ...variant.availability, available: true, status: "in_stock" } };
  return variant;
}

/** Listing pages read per refresh at most: 100,000 variants that ever sold out or were restocked. */
const MAX_LIST_PAGES = 100;

/**
 * The store-wide document with every shard's key laid over it: one get and one listing (keys
 * come with their metadata, so no value is read). A key decides for its variant, whatever the
 * document says: the shard counts that variant now.
 */
export async function readAvailability(kv: KVNamespace): Promise<AvailabilityDoc | null> {
  const [doc, keys] = await Promise.all([kv.get<AvailabilityDoc>(KV_KEYS.availability, "json"), listVariantStates(kv)]);
  if (keys.length === 0) return doc;
  const soldOut = new Map(Object.entries(doc?.sold_out ?? {}));
  const restocked = new Map(Object.entries(doc?.restocked ?? {}));
  for (const [id, state] of keys) {
    soldOut.delete(id);
    restocked.delete(id);
    if (state.s === "sold_out") soldOut.set(id, state.v);
    else if (state.s === "restocked") restocked.set(id, state.v);
  }
  // fromEntries defines own properties, so an id such as "__proto__" stays data.
  return {
    updated_at: doc?.updated_at ?? "",
    sold_out: Object.fromEntries(soldOut),
    restocked: Object.fromEntries(restocked),
  };
}

async function listVariantStates(kv: KVNamespace): Promise<Array<[string, VariantAvailability]>> {
  const prefix = KV_KEYS.variantAvailabilityPrefix;
  const out: Array<[string, VariantAvailability]> = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const listed: KVNamespaceListResult<VariantAvailability> = await kv.list<VariantAvailability>({
      prefix,
      ...(cursor ? { cursor } : {}),
    });
    for (const key of listed.keys) {
      const meta = key.metadata;
      if (meta && typeof meta.v === "string" && typeof meta.s === "string")
        out.push([key.name.slice(prefix.length), meta]);
    }
    if (listed.list_complete) break;
    cursor = listed.cursor;
  }
  return out;
}

async function availabilityDoc(kv: KVNamespace, now: number): Promise<AvailabilityDoc | null> {
  if (cached && now - cached.checkedAt < AVAILABILITY_REFRESH_MS) return cached.doc;
  return reads.run(now, () =>
    readAvailability(kv)
      .catch(() => cached?.doc ?? null)
      .then((doc) => {
        // Keep the same object while nothing changed, so the overlaid index is reused.
        const same = cached?.doc && doc && JSON.stringify(cached.doc) === JSON.stringify(doc);
        cached = { doc: same ? (cached?.doc ?? null) : doc, checkedAt: now };
        return cached.doc;
      }),
  );
}

/** Test hook: forget what was read, so the next call reads KV. */
export function resetAvailabilityCache(): void {
  cached = undefined;
  reads.clear();
  overlaid = undefined;
}
