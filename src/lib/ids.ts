/**
 * Resource ids: `<prefix>_` + base64url(16 id bytes + 8-byte HMAC tag). The 128 id bits
 * are random (or, for a create with an idempotency key, derived from it so a retry lands
 * on the same object). The tag lets the Worker reject ids it never issued without touching
 * a Durable Object, so junk ids create nothing.
 */
import { Lru } from "./lru";

const ID_BYTES = 16;
const TAG_BYTES = 8;
const ENCODED_LENGTH = Math.ceil(((ID_BYTES + TAG_BYTES) * 4) / 3);

// Keyed by the store's own secrets (current and previous): a handful.
const keys = new Lru<string, Promise<CryptoKey>>(8);

function hmacKey(secret: string): Promise<CryptoKey> {
  // No fallback secret: an id signed with a value anyone can compute protects nothing.
  if (secret === "") throw new Error("ids: empty id secret (ID_SIGNING_KEY is required)");
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    keys.set(secret, key);
  }
  return key;
}

async function tag(secret: string, label: string, body: Uint8Array): Promise<Uint8Array> {
  const data = new Uint8Array([...new TextEncoder().encode(`${label}:`), ...body]);
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), data);
  return new Uint8Array(mac).slice(0, TAG_BYTES);
}

/** A fresh random id. */
export function newId(prefix: string, secret: string): Promise<string> {
  return encode(prefix, secret, crypto.getRandomValues(new Uint8Array(ID_BYTES)));
}

/**
 * Whose derived ids a caller makes: an authenticated platform's are its profile's; an
 * anonymous caller naming profile P gets P's anonymous space. Anyone may name P without
 * credentials, so sharing one space let such a caller create "P's" session first under a
 * predictable key (issue 27). A profile is a URL, so the two spellings never meet.
 */
export function keySpace(caller: { readonly profile: string; readonly authenticated: boolean }): string {
  return caller.authenticated ? caller.profile : `anonymous ${caller.profile}`;
}

/**
 * Where a create goes when its derived id is `taken` (durable-objects/shared/owner.ts
 * claimOwner): before the split both classes of caller shared what is now the authenticated
 * space, so an anonymous session of then may sit at such an id. This space was never shared.
 */
export function ownSpace(space: string): string {
  return `own ${space}`;
}

/**
 * The id a given seed always maps to (an idempotency key, a cart's checkout generation, a
 * checkout's order), within one platform: the creating platform's profile is mixed in, so
 * one platform's derived ids say nothing about another's, even to a platform that knows
 * the seed. The encoding is unambiguous (JSON array), so no two (platform, seed) pairs meet.
 */
export async function derivedId(prefix: string, secret: string, platform: string, seed: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret),
    new TextEncoder().encode(`derive:${JSON.stringify([prefix, platform, seed])}`),
  );
  return encode(prefix, secret, new Uint8Array(mac).slice(0, ID_BYTES));
}

/**
 * HMAC-SHA-256 of `text` under the store's secret, hex: a fingerprint of a value that must
 * not be recoverable from its digest (a card number has too little entropy for a plain hash).
 */
export async function keyedDigest(secret: string, text: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(`digest:${text}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Ids already verified in this isolate (the check is an HMAC; agents re-use ids a lot). */
const verified = new Lru<string, true>(10_000);

/** True when `id` has the prefix, the shape, and a tag this secret made. */
export async function isIssuedId(prefix: string, secret: string, id: string): Promise<boolean> {
  const cacheKey = `${secret}\n${id}`;
  if (verified.get(cacheKey)) return true;
  const valid = await checkTag(prefix, secret, id);
  if (valid) {
    verified.set(cacheKey, true);
  }
  return valid;
}

async function checkTag(prefix: string, secret: string, id: string, label = prefix): Promise<boolean> {
  const bytes = idBytes(prefix, id);
  if (!bytes) return false;
  const expected = await tag(secret, label, bytes.slice(0, ID_BYTES));
  let diff = 0;
  for (let i = 0; i < TAG_BYTES; i++) diff |= (expected[i] ?? 0) ^ (bytes[ID_BYTES + i] ?? 0);
  return diff === 0;
}

/** The id's bytes (id and tag) when it has the prefix and the shape; the tag unchecked. */
function idBytes(prefix: string, id: string): Uint8Array | undefined {
  const head = `${prefix}_`;
  if (!id.startsWith(head) || id.length !== head.length + ENCODED_LENGTH) return undefined;
  const bytes = fromBase64Url(id.slice(head.length));
  return bytes && bytes.length === ID_BYTES + TAG_BYTES ? bytes : undefined;
}

async function encode(prefix: string, secret: string, body: Uint8Array, label = prefix): Promise<string> {
  const all = new Uint8Array([...body, ...(await tag(secret, label, body))]);
  return `${prefix}_${toBase64Url(all)}`;
}

/**
 * Orders placed since issue 29 live in their checkout's object: the order id carries the
 * checkout id's 128 bits under a tag of its own, so the Worker finds the object from the
 * order id alone, and no one can turn an order id into a checkout id (or back) without the
 * secret. Still `ord_` and the same length: clients see the same kind of id.
 */
const ORDER_IN_CHECKOUT = "ord@chk";

/** The order id of the order `checkoutId` places (one per session; the same every time). */
export async function orderIdIn(secret: string, checkoutId: string): Promise<string> {
  const bytes = idBytes("chk", checkoutId);
  if (!bytes) throw new Error(`ids: not a checkout id: ${checkoutId}`);
  return encode("ord", secret, bytes.slice(0, ID_BYTES), ORDER_IN_CHECKOUT);
}

/**
 * Where an order this store issued lives: `{ checkout }`, the object of the session that
 * placed it, or `"own"`, its own OrderObject (every order placed before issue 29);
 * undefined for an id the store never issued.
 */
export async function orderHome(secret: string, orderId: string): Promise<{ checkout: string } | "own" | undefined> {
  const cacheKey = `${secret}\n${orderId}`;
  const known = homes.get(cacheKey);
  if (known) return known;
  let home: { checkout: string } | "own" | undefined;
  if (await checkTag("ord", secret, orderId, ORDER_IN_CHECKOUT)) {
    const bytes = idBytes("ord", orderId) as Uint8Array;
    home = { checkout: await encode("chk", secret, bytes.slice(0, ID_BYTES)) };
  } else if (await checkTag("ord", secret, orderId)) home = "own";
  if (home) homes.set(cacheKey, home);
  return home;
}

const homes = new Lru<string, { checkout: string } | "own">(10_000);

export function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
