/**
 * The platforms page's forms, through the functions the JSON API (src/admin/api-keys.ts) runs.
 * Both answer 303. Issuing keeps the new secret as a one-time flash in the signed-in
 * principal's own record (session-record.ts, 10 minutes at most) and redirects to the page
 * that takes it: shown once, never in a URL, and a reload shows the key's id, not a new key.
 */
import { type ApiKeyRecord, type AuthKv, listApiKeys, revokeApiKey } from "../../auth/api-keys";
import { seeOther } from "../../pages/respond";
import { issueApiKey } from "../api-keys";
import { field, readConsoleForm } from "./forms";
import { consoleMessage } from "./layout";
import { issuedPage, platformsPage, shownPage } from "./platforms-page";
import { putFlash, takeFlash } from "./session-record";
import type { ConsoleContext } from "./types";

function authKv(ctx: ConsoleContext): AuthKv | undefined {
  return (ctx.env as { AUTH?: KVNamespace }).AUTH;
}

function notConfigured(ctx: ConsoleContext): Response {
  return consoleMessage(ctx, 501, "API keys are off", "Bind a KV namespace as AUTH to issue platform API keys.");
}

function refused(ctx: ConsoleContext): Response {
  return consoleMessage(ctx, 403, "Refused", "The form expired or came from elsewhere. Reload the page and try again.");
}

export async function listPlatforms(ctx: ConsoleContext): Promise<Response> {
  const kv = authKv(ctx);
  if (!kv) return notConfigured(ctx);
  const revoked = ctx.url.searchParams.get("revoked");
  return platformsPage(ctx, await listApiKeys(kv), revoked ? { revoked: revoked.slice(0, 40) } : {});
}

export async function issuePlatformKey(ctx: ConsoleContext): Promise<Response> {
  const kv = authKv(ctx);
  if (!kv) return notConfigured(ctx);
  const form = await readConsoleForm(ctx);
  if (!form) return refused(ctx);
  const label = field(form, "label", 200);
  const input = { profile: field(form, "profile", 2048), ...(label ? { label } : {}) };
  const issued = await issueApiKey(kv, ctx.config.outboundAllow, input, ctx.now);
  if ("issues" in issued) {
    const problems = issued.issues.map((i) => `${i.path === "$.profile" ? "Profile URL" : i.path}: ${i.message}`);
    return platformsPage(ctx, await listApiKeys(kv), { status: 422, problems });
  }
  await putFlash(ctx.env, ctx.principal, flashName(issued.record.id), JSON.stringify(issued), ctx.now);
  return seeOther(`/admin/platforms/issued?${new URLSearchParams({ id: issued.record.id })}`);
}

const KEY_ID = /^key_[A-Za-z0-9_-]{12}$/;
const flashName = (id: string) => `issued-key:${id}`;

/** GET /admin/platforms/issued?id=…: the secret the issue form just made, this once. */
export async function showIssuedKey(ctx: ConsoleContext): Promise<Response> {
  const id = ctx.url.searchParams.get("id") ?? "";
  const flash = KEY_ID.test(id) ? await takeFlash(ctx.env, ctx.principal, flashName(id), ctx.now) : undefined;
  if (!flash) return shownPage(ctx, KEY_ID.test(id) ? id : undefined);
  const issued = JSON.parse(flash) as { key: string; record: ApiKeyRecord };
  return issuedPage(ctx, issued.key, issued.record);
}

export async function revokePlatformKey(ctx: ConsoleContext, params: Readonly<Record<string, string>>) {
  const kv = authKv(ctx);
  if (!kv) return notConfigured(ctx);
  const form = await readConsoleForm(ctx);
  if (!form) return refused(ctx);
  const id = params.id ?? "";
  const revoked = KEY_ID.test(id) ? await revokeApiKey(kv, id, ctx.now) : null;
  if (!revoked) return consoleMessage(ctx, 404, "No such key", "There is no API key with that id.");
  return seeOther(`/admin/platforms?${new URLSearchParams({ revoked: id })}`);
}
