/**
 * Platform API keys: `ucpk_` + 256 random bits, shown once at creation and stored only as
 * their SHA-256 (a fast hash is enough for keys with that much entropy). Each key is bound
 * to the one platform profile URL it may act for (spec-digest §2.8). Stored in the AUTH KV
 * namespace:
 *   apikey:<sha256 hex>  → ApiKeyRecord        (the lookup on every request)
 *   apikey-id:<id>       → { hash, ...record } (list and revoke by the id the merchant sees)
 * KV is eventually consistent: a new or revoked key takes up to about a minute to be seen
 * everywhere (docs/trust.md).
 */
import { sha256Hex } from "../lib/canonical-json";
import { toBase64Url } from "../lib/ids";
import { Lru } from "../lib/lru";

export interface ApiKeyRecord {
  readonly id: string;
  readonly profile: string;
  readonly label: string;
  readonly created_at: string;
}

export interface ApiKeyListing extends ApiKeyRecord {
  readonly revoked_at?: string;
}

const KEY_PREFIX = "apikey:";
const ID_PREFIX = "apikey-id:";
const API_KEY = /^ucpk_[A-Za-z0-9_-]{43}$/;
// Per-isolate memory of lookups, so a busy platform costs one KV read per isolate per window;
// an unknown key is remembered too (null), so one bad key cannot make a KV read per request.
const CACHE_MS = 30_000;
const cache = new Lru<string, { record: ApiKeyRecord | null; expiresAt: number }>(1000);

export type AuthKv = Pick<KVNamespace, "get" | "put" | "delete" | "list">;

/** The record for a presented key, or null when it is malformed, unknown or revoked. */
export async function findApiKey(kv: AuthKv, presented: string, now: number): Promise<ApiKeyRecord | null> {
  if (!API_KEY.test(presented)) return null;
  const hash = await sha256Hex(presented);
  const hit = cache.get(hash);
  if (hit && hit.expiresAt > now) return hit.record;
  const record = await kv.get<ApiKeyRecord>(`${KEY_PREFIX}${hash}`, { type: "json", cacheTtl: 60 });
  cache.set(hash, { record, expiresAt: now + CACHE_MS });
  return record;
}

export async function createApiKey(
  kv: AuthKv,
  input: { profile: string; label: string },
  now: number,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `ucpk_${toBase64Url(crypto.getRandomValues(new Uint8Array(32)))}`;
  const id = `key_${toBase64Url(crypto.getRandomValues(new Uint8Array(9)))}`;
  const hash = await sha256Hex(key);
  const record: ApiKeyRecord = {
    id,
    profile: input.profile,
    label: input.label,
    created_at: new Date(now).toISOString(),
  };
  await kv.put(`${ID_PREFIX}${id}`, JSON.stringify({ ...record, hash }));
  await kv.put(`${KEY_PREFIX}${hash}`, JSON.stringify(record));
  return { key, record };
}

/** Revokes by id; the id entry stays (marked) so the listing shows what was revoked when. */
export async function revokeApiKey(kv: AuthKv, id: string, now: number): Promise<ApiKeyListing | null> {
  const stored = await kv.get<ApiKeyListing & { hash: string }>(`${ID_PREFIX}${id}`, "json");
  if (!stored) return null;
  await kv.delete(`${KEY_PREFIX}${stored.hash}`);
  const { hash, ...record } = stored;
  const revoked = { ...record, revoked_at: stored.revoked_at ?? new Date(now).toISOString() };
  await kv.put(`${ID_PREFIX}${id}`, JSON.stringify({ ...revoked, hash }));
  for (const [cachedHash, entry] of cache.entries()) if (entry.record?.id === id) cache.delete(cachedHash);
  return revoked;
}

export async function listApiKeys(kv: AuthKv): Promise<ApiKeyListing[]> {
  const out: ApiKeyListing[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: ID_PREFIX, ...(cursor ? { cursor } : {}) });
    for (const { name } of page.keys) {
      const stored = await kv.get<ApiKeyListing & { hash: string }>(name, "json");
      if (stored) {
        const { hash: _hash, ...record } = stored;
        out.push(record);
      }
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out;
}

/** Test hook: forget cached lookups. */
export function clearApiKeyCache(): void {
  cache.clear();
}
