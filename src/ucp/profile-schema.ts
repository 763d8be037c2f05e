/**
 * What a platform profile must hold for this store to act on it, in either protocol version
 * (2026-04-08 discovery/profile_schema.json, 2026-08-25 profile.json#/$defs/platform_schema).
 *
 * Deliberately narrower than the official platform schemas (docs/decisions/protocol.md, "Platform
 * profiles: accept what can be understood"). Real agents' profiles are untidy: Shopify's own
 * published agent profiles, which its reference client sends, leave `spec` and `schema` off
 * capabilities the official schemas require them on (spec-digest-2026-08-25 §5.1 item 3). A
 * business does not dereference a platform's `spec`/`schema` URLs, its `services` or its
 * handler ids, so their absence is not a reason to refuse; what is refused is what negotiation
 * cannot read: the version, and capability and handler registries that are not registries.
 */
import * as z from "zod";
import { toJsonPath } from "../lib/json-path";

const VERSION = /^\d{4}-\d{2}-\d{2}$/;

const Version = z.string().regex(VERSION, "must be a YYYY-MM-DD date");

/** A capability entry is only matched by its version; an entry without one cannot match anything. */
const CapabilityEntry = z.looseObject({ version: Version });

/** 2026-01-11 capabilities: `[{name, version}]`, read as before (platform-profile.ts). */
const LegacyCapabilities = z.array(z.looseObject({ name: z.string(), version: Version }));

const registry = <T extends z.ZodType>(entry: T) => z.record(z.string(), z.array(entry));

export const PlatformUcpSchema = z.looseObject({
  version: Version,
  status: z.enum(["success", "error"]).optional(),
  services: registry(z.unknown()).optional(),
  capabilities: z.union([registry(CapabilityEntry), LegacyCapabilities]).optional(),
  payment_handlers: registry(z.unknown()).optional(),
});

export const PlatformProfileSchema = z.looseObject({ ucp: PlatformUcpSchema });

export type PlatformUcp = z.infer<typeof PlatformUcpSchema>;

/** A profile's first problem that stops negotiation, named by where it is (`$.ucp.version`), or undefined. */
export function platformSchemaProblem(doc: unknown): string | undefined {
  const parsed = PlatformProfileSchema.safeParse(doc);
  if (parsed.success) return undefined;
  const first = parsed.error.issues[0];
  if (!first) return "Platform profile cannot be read";
  const { path, issue } = innermost(first, [], doc);
  return `Platform profile cannot be read: ${toJsonPath(path)} ${describe(issue, valueAt(doc, path))}`;
}

/**
 * A union's issue says only "invalid input": follow the branch the document meant (the
 * capability array when it is an array, else the registry) down to the real problem.
 */
function innermost(
  issue: z.core.$ZodIssue,
  base: PropertyKey[],
  doc: unknown,
): { path: PropertyKey[]; issue: z.core.$ZodIssue } {
  const path = [...base, ...issue.path];
  if (issue.code !== "invalid_union") return { path, issue };
  const meant = Array.isArray(valueAt(doc, path)) ? 1 : 0;
  const next = issue.errors[meant]?.[0];
  return next ? innermost(next, path, doc) : { path, issue };
}

function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let value = doc;
  for (const key of path) value = value !== null && typeof value === "object" ? Reflect.get(value, key) : undefined;
  return value;
}

/** A missing member is "is required", whatever the check that met it would have said of a present one. */
function describe(issue: z.core.$ZodIssue, value: unknown): string {
  if (value === undefined) return "is required";
  return issue.message;
}
