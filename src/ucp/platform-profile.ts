/**
 * Reads a platform profile document into what negotiation, signature checks and order
 * webhooks need, in either supported version: 2026-08-25 (`keys[]`) and 2026-04-08
 * (`signing_keys[]`), and the 2026-01-11 capability array (`[{name, version}]`, spec-digest
 * §12.4). What must be readable is in profile-schema.ts; URLs read here are not otherwise checked.
 */

import { err, ok, type Result } from "../lib/result";
import { isPlainObject } from "../lib/safe-json";
import { CAPABILITY, type CapabilityEntry, type CapabilityRegistry } from "./capabilities";
import { platformSchemaProblem } from "./profile-schema";
import { CURRENT_VERSION, isSupportedVersion } from "./versions";

/** A public JWK from `keys` or `signing_keys`, reduced to the public members a verifier reads. */
export type SigningKey = JsonWebKey & { readonly kid: string };

export interface PlatformProfile {
  readonly version: string;
  readonly capabilities: CapabilityRegistry;
  /** At most MAX_SIGNING_KEYS keys, unique by kid, in document order. */
  readonly signingKeys: readonly SigningKey[];
  /** `capabilities["dev.ucp.shopping.order"][].config.webhook_url`; check with checkOutboundUrl before use. */
  readonly orderWebhookUrl?: string;
  /** `ucp.payment_handlers`: handler name → instrument types it takes (null: any). Empty: none declared. */
  readonly paymentHandlers: PlatformHandlers;
}

export type PlatformHandlers = Readonly<Record<string, readonly string[] | null>>;

export const MAX_SIGNING_KEYS = 20;

const VERSION = /^\d{4}-\d{2}-\d{2}$/;

export function parsePlatformProfile(doc: unknown): Result<PlatformProfile, string> {
  if (!isPlainObject(doc) || !isPlainObject(doc.ucp)) return err("Profile has no `ucp` object");
  const { version, capabilities } = doc.ucp;
  if (version === undefined) return err("Platform profile cannot be read: $.ucp.version is required");
  if (typeof version !== "string" || !VERSION.test(version))
    return err("Platform profile cannot be read: $.ucp.version is not a YYYY-MM-DD date");
  // A version we do not speak is refused as unsupported (negotiation.ts), not judged here.
  if (!isSupportedVersion(version)) return ok({ version, capabilities: {}, signingKeys: [], paymentHandlers: {} });
  const problem = platformSchemaProblem(doc);
  if (problem) return err(problem);
  const registry = parseCapabilities(capabilities);
  if (!registry.ok) return registry;
  const webhook = orderWebhookUrl(capabilities);
  const profile = {
    version,
    capabilities: registry.value,
    signingKeys: signingKeys(publishedKeys(doc, version)),
    paymentHandlers: platformHandlers(doc.ucp.payment_handlers),
  };
  return ok(webhook === undefined ? profile : { ...profile, orderWebhookUrl: webhook });
}

/**
 * The instrument types each declared handler takes, over all its entries; a handler with an
 * entry that names none (`available_instruments` absent: no restriction) takes any.
 */
function platformHandlers(raw: unknown): PlatformHandlers {
  const out: Record<string, string[] | null> = Object.create(null);
  if (!isPlainObject(raw)) return out;
  for (const [name, entries] of Object.entries(raw)) {
    if (!Array.isArray(entries)) continue;
    let types: string[] | null = [];
    for (const entry of entries) {
      const available = isPlainObject(entry) ? entry.available_instruments : undefined;
      if (!Array.isArray(available)) types = null;
      else if (types) for (const a of available) if (isPlainObject(a) && typeof a.type === "string") types.push(a.type);
    }
    out[name] = types;
  }
  return out;
}

/**
 * 2026-08-25 profiles publish keys in `keys[]`, 2026-04-08 ones in `signing_keys[]`; either is
 * read in either version, the version's own first (spec-digest-2026-08-25 §1.6 step 8).
 */
function publishedKeys(doc: Record<string, unknown>, version: string): unknown {
  const [own, other] = version === CURRENT_VERSION ? [doc.keys, doc.signing_keys] : [doc.signing_keys, doc.keys];
  return Array.isArray(own) ? own : other;
}

/** Public JWK members; anything else (private parts, key_ops, junk) is not carried. */
const JWK_PUBLIC_MEMBERS = ["kty", "kid", "use", "alg", "crv", "x", "y", "n", "e"] as const;

/**
 * Keys sit beside `ucp` (profile.json and discovery/profile_schema.json `base`). Entries without
 * a string kid and kty are skipped rather than failing the profile: keys only matter to a
 * signature check, which then finds no key and refuses.
 */
function signingKeys(raw: unknown): SigningKey[] {
  if (!Array.isArray(raw)) return [];
  const keys: SigningKey[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    if (keys.length >= MAX_SIGNING_KEYS) break;
    if (!isPlainObject(item) || typeof item.kid !== "string" || typeof item.kty !== "string") continue;
    if (seen.has(item.kid)) continue; // a kid must name one key
    seen.add(item.kid);
    const key: Record<string, string> = {};
    for (const member of JWK_PUBLIC_MEMBERS) {
      const value = item[member];
      if (typeof value === "string") key[member] = value;
    }
    keys.push({ ...key, kid: item.kid, kty: item.kty });
  }
  return keys;
}

/** The first order capability entry with a string `config.webhook_url`, in either capability shape. */
function orderWebhookUrl(raw: unknown): string | undefined {
  const keyed = isPlainObject(raw) ? raw[CAPABILITY.order] : undefined;
  const entries: unknown[] = Array.isArray(raw)
    ? raw.filter((item) => isPlainObject(item) && item.name === CAPABILITY.order)
    : Array.isArray(keyed)
      ? keyed
      : [];
  for (const entry of entries) {
    const config = isPlainObject(entry) ? entry.config : undefined;
    if (isPlainObject(config) && typeof config.webhook_url === "string") return config.webhook_url;
  }
  return undefined;
}

function parseCapabilities(raw: unknown): Result<CapabilityRegistry, string> {
  if (raw === undefined) return ok({});
  const out: Record<string, CapabilityEntry[]> = Object.create(null);
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (!isPlainObject(item) || typeof item.name !== "string") return err("Capability entry without a `name`");
      const entry = parseEntry(item.name, item);
      if (!entry.ok) return entry;
      out[item.name] = [...(out[item.name] ?? []), entry.value];
    }
    return ok(out);
  }
  if (!isPlainObject(raw)) return err("`ucp.capabilities` must be an object");
  for (const [name, entries] of Object.entries(raw)) {
    if (!Array.isArray(entries)) return err(`Capability ${name} must be an array of entries`);
    const parsed: CapabilityEntry[] = [];
    for (const item of entries) {
      const entry = parseEntry(name, item);
      if (!entry.ok) return entry;
      parsed.push(entry.value);
    }
    out[name] = parsed;
  }
  return ok(out);
}

/**
 * Only the version is read: intersection matches names and versions, and prunes by our own
 * `extends`, so a platform's `extends`, `spec` and `schema` are never acted on.
 */
function parseEntry(name: string, item: unknown): Result<CapabilityEntry, string> {
  if (!isPlainObject(item) || typeof item.version !== "string" || !VERSION.test(item.version)) {
    return err(
      `Platform profile cannot be read: capability ${name.slice(0, 80)} has an entry without a YYYY-MM-DD version`,
    );
  }
  return ok({ version: item.version });
}
