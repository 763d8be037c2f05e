/**
 * Capability intersection (UCP overview §Intersection Algorithm): same name, highest
 * mutual version, then orphaned extensions pruned until nothing changes. Pure.
 */
import { CAPABILITY, type CapabilityEntry, type CapabilityRegistry } from "./capabilities";

export type ActiveCapabilities = ReadonlyMap<string, CapabilityEntry>;

export function intersectCapabilities(business: CapabilityRegistry, platform: CapabilityRegistry): ActiveCapabilities {
  const active = new Map<string, CapabilityEntry>();
  for (const [name, entries] of Object.entries(business)) {
    const platformVersions = new Set((platform[name] ?? []).map((e) => e.version));
    let best: CapabilityEntry | undefined;
    for (const entry of entries) {
      if (platformVersions.has(entry.version) && (best === undefined || entry.version > best.version)) best = entry;
    }
    if (best) active.set(name, best);
  }
  pruneOrphans(active);
  return active;
}

function pruneOrphans(active: Map<string, CapabilityEntry>): void {
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, entry] of active) {
      const parents = parentsOf(entry);
      if (parents.length > 0 && !parents.some((p) => active.has(p))) {
        active.delete(name);
        changed = true;
      }
    }
  }
}

export function parentsOf(entry: CapabilityEntry): readonly string[] {
  if (entry.extends === undefined) return [];
  return typeof entry.extends === "string" ? [entry.extends] : entry.extends;
}

const relevantCache = new WeakMap<ActiveCapabilities, Map<string, Record<string, Array<{ version: string }>>>>();

/**
 * The response `ucp.capabilities`: the operation's root plus active extensions of it.
 * Memoized per intersection (they are shared per cached profile); callers must not mutate it.
 */
export function relevantCapabilities(
  active: ActiveCapabilities,
  root: string,
): Record<string, Array<{ version: string }>> {
  let byRoot = relevantCache.get(active);
  if (!byRoot) {
    byRoot = new Map();
    relevantCache.set(active, byRoot);
  }
  let out = byRoot.get(root);
  if (!out) {
    out = computeRelevant(active, root);
    byRoot.set(root, out);
  }
  return out;
}

function computeRelevant(active: ActiveCapabilities, root: string): Record<string, Array<{ version: string }>> {
  const out: Record<string, Array<{ version: string }>> = {};
  const rootEntry = active.get(root);
  if (!rootEntry) return out;
  out[root] = [{ version: rootEntry.version }];
  for (const [name, entry] of active) {
    if (parentsOf(entry).includes(root)) out[name] = [{ version: entry.version }];
  }
  return out;
}

/** Which checkout extensions this platform negotiated: the rest neither act nor appear. */
export interface CheckoutExtensions {
  readonly fulfillment: boolean;
  readonly discount: boolean;
  readonly buyerConsent: boolean;
}

export const ALL_CHECKOUT_EXTENSIONS: CheckoutExtensions = { fulfillment: true, discount: true, buyerConsent: true };

/** From the active set, or from a response's `ucp.capabilities` (which lists only active ones). */
export function checkoutExtensions(active: { has(name: string): boolean }): CheckoutExtensions {
  return {
    fulfillment: active.has(CAPABILITY.fulfillment),
    discount: active.has(CAPABILITY.discount),
    buyerConsent: active.has(CAPABILITY.buyerConsent),
  };
}
