/**
 * The one place older request shapes become the current one (spec-digest §12.4): the
 * profile from `meta["ucp-agent"]`, `_meta.ucp`, or the UCP-Agent header; the idempotency
 * key from `meta["idempotency-key"]`, `idempotency_key`, or the Idempotency-Key header.
 * Everything past here sees a NormalizedCall.
 */
import { isPlainObject } from "../lib/safe-json";
import type { NormalizedCall } from "../pipeline/tool-call";
import { profileFromHeader } from "../ucp/ucp-agent";

export type { NormalizedCall };

const META_CARRIERS = new Set(["meta", "_meta", "idempotency_key"]);

export function normalizeCall(args: Record<string, unknown>, paramsMeta: unknown, headers: Headers): NormalizedCall {
  const meta = isPlainObject(args.meta) ? args.meta : {};
  const profile =
    field(meta["ucp-agent"], "profile") ??
    field(meta.ucp, "profile") ??
    field(isPlainObject(paramsMeta) ? paramsMeta["ucp-agent"] : undefined, "profile") ??
    field(isPlainObject(paramsMeta) ? paramsMeta.ucp : undefined, "profile") ??
    field(isPlainObject(args._meta) ? args._meta.ucp : undefined, "profile") ??
    profileFromHeader(headers.get("ucp-agent"));
  const idempotencyKey = meta["idempotency-key"] ?? args.idempotency_key ?? headers.get("idempotency-key") ?? undefined;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!META_CARRIERS.has(key)) rest[key] = value;
  return { profile, idempotencyKey, args: rest, meta };
}

function field(holder: unknown, key: string): unknown {
  return isPlainObject(holder) ? holder[key] : undefined;
}
