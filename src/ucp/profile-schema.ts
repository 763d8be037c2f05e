/**
 * The required parts of the official platform profile schema (2026-04-08
 * discovery/profile_schema.json → ucp.json#/$defs/platform_schema and the platform variants
 * of service.json, capability.json and payment_handler.json), in zod because the Worker
 * cannot read the official files. test/ucp/profile-schema.test.ts checks both agree.
 *
 * Two leniencies, on purpose (docs/decisions.md, issue 10 negotiation): the 2026-01-11
 * capability array is still read (spec-digest §12.4), and `signing_keys` entries are not
 * judged here: a bad key is skipped (platform-profile.ts) and only a signature check needs one.
 */
import * as z from "zod";
import { toJsonPath } from "../lib/json-path";

const VERSION = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+$/;

const Version = z.string().regex(VERSION, "must be a YYYY-MM-DD date");
const Name = z.string().regex(NAME, "must be a reverse-domain name");
const Uri = z.url({ error: "must be a URI" });

/** ucp.json#/$defs/entity: what every service, capability and handler entry has. */
const Entity = z.looseObject({
  version: Version,
  spec: Uri.optional(),
  schema: Uri.optional(),
  id: z.string().optional(),
  config: z.looseObject({}).optional(),
});

const PlatformService = Entity.extend({
  transport: z.enum(["rest", "mcp", "a2a", "embedded"]),
  endpoint: Uri.optional(),
  spec: Uri,
}).refine((service) => service.transport === "a2a" || service.schema !== undefined, {
  message: "`schema` is required for rest, mcp and embedded bindings",
  path: ["schema"],
});

const PlatformCapability = Entity.extend({
  spec: Uri,
  schema: Uri,
  extends: z.union([Name, z.array(Name).min(1)]).optional(),
});

const PlatformHandler = Entity.extend({
  id: z.string(),
  spec: Uri,
  schema: Uri,
  available_instruments: z
    .array(z.looseObject({ type: z.string(), constraints: z.looseObject({}).optional() }))
    .min(1)
    .optional(),
});

const registry = <T extends z.ZodType>(entry: T) => z.record(Name, z.array(entry));

/** 2026-01-11 capabilities: `[{name, version}]`, read as before (platform-profile.ts). */
const LegacyCapabilities = z.array(z.looseObject({ name: Name, version: Version }));

export const PlatformUcpSchema = z.looseObject({
  version: Version,
  status: z.enum(["success", "error"]).optional(),
  services: registry(PlatformService),
  capabilities: z.union([registry(PlatformCapability), LegacyCapabilities]).optional(),
  payment_handlers: registry(PlatformHandler),
});

export const PlatformProfileSchema = z.looseObject({ ucp: PlatformUcpSchema });

export type PlatformUcp = z.infer<typeof PlatformUcpSchema>;

/** A malformed profile's first problem, named by where it is (`$.ucp.services`), or undefined. */
export function platformSchemaProblem(doc: unknown): string | undefined {
  const parsed = PlatformProfileSchema.safeParse(doc);
  if (parsed.success) return undefined;
  const first = parsed.error.issues[0];
  if (!first) return "Platform profile does not match the platform profile schema";
  const { path, issue } = innermost(first, [], doc);
  return `Platform profile does not match the platform profile schema: ${toJsonPath(path)} ${describe(issue)}`;
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

function describe(issue: z.core.$ZodIssue): string {
  // A missing member reads better as "is required" than as "expected object, received undefined".
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return "is required";
  return issue.message;
}
