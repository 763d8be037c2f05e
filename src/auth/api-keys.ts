/**
 * Platform API keys: `ucpk_` + 256 random bits, shown once at creation and stored only as
 * their SHA-256 (a fast hash is enough for keys with that much entropy). Each key is bound
 * to the one platform profile URL it may act for (spec-digest §2.8). Stored in the AUTH KV
 * namespace:
 *   apikey:<sha256 hex>  → ApiKeyRecord        (the lookup on every request)
 *   apikey-id:<id>       → { hash, ...record } (list and revoke by the id the merchant sees)
 *   apikey-used:<id>     → ISO time the key was last used, to the hour (see noteUse)
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
  /** When a request last authenticated with the key, to within USED_EVERY_MS. */
  readonly last_used_at?: string;
}

const KEY_PREFIX = "apikey:";
const ID_PREFIX = "apikey-id:";
const USED_PREFIX = "apikey-used:";
/** "Last used" is kept to the hour: one KV write per key per hour, not one per request. */
const USED_EVERY_MS = 60 * 60 * 1000;
const noted = new Lru<string, number>(1000);
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
  const record =
    hit && hit.expiresAt > now
      ? hit.record
      : await kv.get<ApiKeyRecord>(`${KEY_PREFIX}${hash}`, { type: "json", cacheTtl: 60 });
  if (!(hit && hit.expiresAt > now)) cache.set(hash, { record, expiresAt: now + CACHE_MS });
  if (record) await noteUse(kv, record.id, now);
  return record;
}

/**
 * Records that a key was used, at most once per USED_EVERY_MS: this isolate remembers when it
 * last looked, and the stored time is only rewritten once it is an hour old, so a busy
 * platform costs one KV read per isolate per hour and one write per hour. A failed write only
 * leaves "last used" older; it never refuses the request.
 */
async function noteUse(kv: AuthKv, id: string, now: number): Promise<void> {
  const last = noted.get(id);
  if (last !== undefined && now - last < USED_EVERY_MS) return;
  noted.set(id, now);
  try {
    const stored = await kv.get(`${USED_PREFIX}${id}`, { cacheTtl: 60 });
    const at = stored === null ? Number.NaN : Date.parse(stored);
    if (Number.isFinite(at) && now - at < USED_EVERY_MS) {
      noted.set(id, at);
      return;
    }
    await kv.put(`${USED_PREFIX}${id}`, new Date(now).toISOString());
  } catch (error) {
    console.error(JSON.stringify({ event: "api_key_last_used_failed", error: String(error) }));
  }
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
        const used = await kv.get(`${USED_PREFIX}${record.id}`);
        out.push(used === null ? record : { ...record, last_used_at: used });
      }
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out;
}

/** Test hook: forget cached lookups. */
export function clearApiKeyCache(): void {
  cache.clear();
  noted.clear();
}
