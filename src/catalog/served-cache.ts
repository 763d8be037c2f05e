/**
 * After a switch of the manifest: both per-isolate views of the served catalog (the KV index
 * snapshot, kv-catalog.ts, and the D1 path's manifest, search-served.ts) re-read KV at the next
 * request instead of at their next 30-second check. Forgetting only one left lookups (which
 * read the manifest cache) on the old catalog while the index had moved on (issue 28).
 */
import { resetCatalogCache } from "./kv-catalog";
import { forgetNamedIndexes } from "./named-index";
import { forgetServedManifest } from "./search-served";

export function forgetServedCatalog(): void {
  resetCatalogCache();
  forgetServedManifest();
  // Keyed by the tables' key, so never wrong after a switch; only dead weight.
  forgetNamedIndexes();
}
