/**
 * Merchant stock counts: `POST /admin/inventory/<variant id>` with `{"set": n}` (units on hand
 * now) or `{"add": n}` (a delivery; negative for a shortfall), and `GET` for the current count,
 * behind ADMIN_TOKEN (docs/inventory.md). The variant's stock shard applies it and publishes the
 * variant's availability to search. An `add` needs an Idempotency-Key: retried without one
 * (a script that timed out) it would count the delivery twice.
 */
import { namedCatalog } from "../catalog/named-catalog";
import { stockLevels } from "../catalog/stock";
import { parseStockChange, type StockChange } from "../catalog/stock-change";
import { stockShardName, stockVersion } from "../catalog/stock-keys";
import { stockLevelsNow } from "../catalog/stock-shards";
import { jsonResponse } from "../lib/http";
import { adminError } from "./api-error";
import { adminLedgerEntry, idempotencyConflict, idempotencyKey } from "./idempotency-key";
import { type AdminIssue, invalid, readJsonBody } from "./json-body";
import { type AdminEnv, noRoute } from "./orders";

const ROUTE = /^\/admin\/inventory\/([^/]{1,600})$/;
const BODY_LIMIT = 4 * 1024;

export async function handleInventoryAdmin(request: Request, env: AdminEnv, pathname: string): Promise<Response> {
  const raw = ROUTE.exec(pathname)?.[1];
  const variantId = raw === undefined ? undefined : decode(raw);
  if (variantId === undefined || (request.method !== "POST" && request.method !== "GET")) return noRoute(pathname);
  if (request.method === "GET") {
    const target = await countedVariant(env, variantId);
    if ("error" in target) return refusal(target);
    const now = await stockLevelsNow(env, [variantId], { [variantId]: target.catalogLevel }, target.version);
    return jsonResponse({ variant_id: variantId, available: now.levels[variantId] ?? target.catalogLevel });
  }
  const read = await readJsonBody(request, BODY_LIMIT);
  if (read instanceof Response) return read;
  const change = parseStockChange(read.body);
  if (!change.ok) return invalid("invalid_input", change.error);
  const key = idempotencyKey(request);
  if (key instanceof Response) return key;
  const outcome = await restockVariant(env, variantId, change.value, key);
  return "error" in outcome ? refusal(outcome) : jsonResponse({ variant_id: variantId, available: outcome.level });
}

/** Why a restock or a count was refused, as the JSON API and the console both show it. */
export type StockRefusal =
  | { readonly error: "not_found" | "not_counted" | "idempotency_key_required"; readonly message: string }
  | { readonly error: "idempotency_conflict" }
  | { readonly error: "invalid_input"; readonly issues: readonly AdminIssue[] };

/**
 * One restock, for `POST /admin/inventory/<variant>` and the console's stock forms alike:
 * the variant must be counted in the current catalog, an `add` must carry a key.
 */
export async function restockVariant(
  env: AdminEnv,
  variantId: string,
  change: StockChange,
  key: string | null,
): Promise<StockRefusal | { readonly level: number }> {
  const target = await countedVariant(env, variantId);
  if ("error" in target) return target;
  if (key === null && "add" in change) return keyRequired();
  // The variant's own stock object (docs/inventory.md "Stock shards").
  const inventory = env.INVENTORY.getByName(stockShardName(variantId));
  const idempotency = key === null ? undefined : await adminLedgerEntry("restock", key, variantId, change);
  const outcome = await inventory.restock(variantId, change, target.catalogLevel, target.version, idempotency);
  if (outcome.ok) return { level: outcome.level };
  return outcome.reason === "conflict"
    ? { error: "idempotency_conflict" }
    : { error: "invalid_input", issues: outcome.issues };
}

function refusal(refused: StockRefusal): Response {
  switch (refused.error) {
    case "idempotency_conflict":
      return idempotencyConflict();
    case "invalid_input":
      return invalid("invalid_input", refused.issues);
    case "not_found":
      return adminError(404, refused.error, { message: refused.message });
    case "not_counted":
      return adminError(409, refused.error, { message: refused.message });
    case "idempotency_key_required":
      return adminError(400, refused.error, { message: refused.message });
  }
}

/** `set` states a count and may go without a key; `add` may not (docs/inventory.md "Restocking"). */
function keyRequired(): StockRefusal {
  return {
    error: "idempotency_key_required",
    message:
      'Send an Idempotency-Key header with {"add": n} (any unique value per delivery, reused on retries): a retried add without one would count twice.',
  };
}

/** The variant in the current catalog, with its level as loaded; backorder/preorder are not counted. */
export async function countedVariant(
  env: AdminEnv,
  variantId: string,
): Promise<StockRefusal | { catalogLevel: number; version: string }> {
  // Only this variant's product: a D1 catalog's isolate never loads the KV index.
  const snapshot = await namedCatalog(env, Date.now(), [variantId]);
  const ref = snapshot?.index.variantRefs.get(variantId);
  const doc = ref && snapshot ? snapshot.index.docs[ref.doc] : undefined;
  if (!snapshot || !ref || !doc || doc.v[ref.variant]?.[0] !== variantId) {
    return { error: "not_found", message: `No variant ${variantId.slice(0, 200)} in the catalog.` };
  }
  const product = (await snapshot.documents([doc.id])).get(doc.id);
  const status = product?.variants[ref.variant]?.availability?.status;
  if (status === "backorder" || status === "preorder") {
    return {
      error: "not_counted",
      message: `${variantId.slice(0, 200)} sells on ${status}: its stock is not counted. Change its status in the catalog file to count it.`,
    };
  }
  const stock = await stockLevels(env.CATALOG, snapshot, [variantId]);
  return {
    catalogLevel: Object.hasOwn(stock, variantId) ? (stock[variantId] ?? 0) : 0,
    version: stockVersion(snapshot.manifest),
  };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
