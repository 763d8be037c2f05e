/**
 * The merchant's own signing key: the MERCHANT_SIGNING_KEY secret, a private EC JWK with
 * its `kid`, whose public half is published in discovery's `signing_keys`
 * (signing-keys.json, `npm run keys:signing`). It signs order webhooks and
 * complete_checkout responses. Imported once per isolate.
 */
import { importSigningKey, type SigningKey } from "./signing-keys";

let cached: { secret: string; key: Promise<SigningKey | undefined> } | undefined;

export function merchantSigningKey(env: { MERCHANT_SIGNING_KEY?: string }): Promise<SigningKey | undefined> {
  const secret = env.MERCHANT_SIGNING_KEY;
  if (!secret) return Promise.resolve(undefined);
  if (cached?.secret !== secret) cached = { secret, key: load(secret) };
  return cached.key;
}

async function load(secret: string): Promise<SigningKey | undefined> {
  const imported = await importSigningKey(secret);
  if (imported.ok) return imported.value;
  // Logged, not thrown: an unusable key must not stop orders, only their signatures.
  console.error("MERCHANT_SIGNING_KEY is not a usable private JWK:", imported.error);
  return undefined;
}
