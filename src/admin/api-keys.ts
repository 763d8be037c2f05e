/**
 * Platform API keys for the merchant (docs/trust.md):
 *   POST /admin/api-keys              {"profile": "https://…", "label": "…"} → the key, once
 *   GET  /admin/api-keys              every key's id, profile, label, dates (never the key)
 *   POST /admin/api-keys/<id>/revoke  the key stops working (within about a minute)
 */
import * as z from "zod";
import { type ApiKeyRecord, type AuthKv, createApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys";
import { type MerchantConfig, merchantConfig } from "../config";
import { jsonResponse } from "../lib/http";
import { toJsonPath } from "../lib/json-path";
import { readCapped } from "../lib/read-capped";
import { parseUntrustedJson } from "../lib/safe-json";
import { checkProfileUrl } from "../ucp/profile-fetch";
import { adminError } from "./api-error";
import { type AdminEnv, noRoute } from "./orders";

const CreateSchema = z.strictObject({
  profile: z.string().min(1).max(2048),
  label: z.string().min(1).max(200).default("unnamed"),
});
const REVOKE = /^\/admin\/api-keys\/(key_[A-Za-z0-9_-]{12})\/revoke$/;

export async function handleApiKeyAdmin(request: Request, env: AdminEnv, pathname: string): Promise<Response> {
  const kv = (env as { AUTH?: KVNamespace }).AUTH;
  if (!kv) {
    return adminError(501, "not_configured", { message: "Bind a KV namespace as AUTH to use API keys." });
  }
  const now = Date.now();
  if (pathname === "/admin/api-keys" && request.method === "GET") {
    return jsonResponse({ api_keys: await listApiKeys(kv) });
  }
  if (pathname === "/admin/api-keys" && request.method === "POST") {
    const text = await readCapped(request, 16 * 1024);
    const json = text === undefined ? undefined : parseUntrustedJson(text);
    if (!json?.ok) return invalid([{ path: "$", message: "the body must be a JSON object under 16 KiB" }]);
    const issued = await issueApiKey(kv, merchantConfig(env).outboundAllow, json.value, now);
    if ("issues" in issued) return invalid(issued.issues);
    return jsonResponse({ api_key: issued.key, ...issued.record }, 201);
  }
  const revoke = request.method === "POST" ? REVOKE.exec(pathname) : null;
  if (revoke?.[1]) {
    const revoked = await revokeApiKey(kv, revoke[1], now);
    return revoked ? jsonResponse(revoked) : adminError(404, "not_found", { message: "No such API key." });
  }
  return noRoute(pathname);
}

/**
 * A new key for `{profile, label}`, for the JSON API and the console's platforms page alike:
 * the profile must be a URL agents could use on the wire; the key is in the answer only.
 */
export async function issueApiKey(
  kv: AuthKv,
  outboundAllow: MerchantConfig["outboundAllow"],
  input: unknown,
  now: number,
): Promise<{ key: string; record: ApiKeyRecord } | { issues: Array<{ path: string; message: string }> }> {
  const parsed = CreateSchema.safeParse(input);
  if (!parsed.success)
    return { issues: parsed.error.issues.map((i) => ({ path: toJsonPath(i.path), message: i.message })) };
  // The same rule as profiles on the wire, so a key can only name a profile agents can use.
  const url = checkProfileUrl(parsed.data.profile, outboundAllow);
  if (!url.ok) return { issues: [{ path: "$.profile", message: url.error.content }] };
  return createApiKey(kv, { profile: url.value.href, label: parsed.data.label }, now);
}

function invalid(issues: ReadonlyArray<{ path: string; message: string }>): Response {
  return adminError(400, "invalid_input", { issues });
}
