/**
 * Reads a platform profile document into what negotiation needs. Accepts the 2026-04-08
 * shape and the 2026-01-11 capability array (`[{name, version}]`), per spec-digest §12.4.
 */

import { err, ok, type Result } from "../lib/result";
import { isPlainObject } from "../lib/safe-json";
import type { CapabilityEntry, CapabilityRegistry } from "./capabilities";

export interface PlatformProfile {
  readonly version: string;
  readonly capabilities: CapabilityRegistry;
}

const VERSION = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+$/;

export function parsePlatformProfile(doc: unknown): Result<PlatformProfile, string> {
  if (!isPlainObject(doc) || !isPlainObject(doc.ucp)) return err("Profile has no `ucp` object");
  const { version, capabilities } = doc.ucp;
  if (typeof version !== "string" || !VERSION.test(version))
    return err("Profile `ucp.version` is not a YYYY-MM-DD date");
  const registry = parseCapabilities(capabilities);
  if (!registry.ok) return registry;
  return ok({ version, capabilities: registry.value });
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

function parseEntry(name: string, item: unknown): Result<CapabilityEntry, string> {
  if (!NAME.test(name)) return err(`Capability name ${JSON.stringify(name.slice(0, 80))} is not reverse-domain`);
  if (!isPlainObject(item) || typeof item.version !== "string" || !VERSION.test(item.version)) {
    return err(`Capability ${name} has an entry without a YYYY-MM-DD version`);
  }
  const ext = item.extends;
  const validExtends =
    ext === undefined || typeof ext === "string" || (Array.isArray(ext) && ext.every((e) => typeof e === "string"));
  if (!validExtends) return err(`Capability ${name} has an invalid \`extends\``);
  return ok(
    ext === undefined ? { version: item.version } : { version: item.version, extends: ext as string | string[] },
  );
}
