/**
 * Drives the Worker under test over HTTP (its real fetch handler), as an agent would.
 * Calls to the tools the default trust tiers close to anonymous agents (complete_checkout,
 * get_order) are signed as the test platform (RFC 9421, the key every fixture profile
 * publishes), as a real platform would sign them; pass `{ anonymous: true }` to send them
 * unsigned.
 */
import { exports } from "cloudflare:workers";
import { signRequest } from "../../src/auth/http-signature";
import { importSigningKey, type SigningKey } from "../../src/auth/signing-keys";
import { isPlainObject } from "../../src/lib/safe-json";
import { PLATFORM_KEY } from "../fixtures/platform-keys";

export const ENDPOINT = "https://shop.example.com/ucp/mcp";
export const PROFILES = "https://agent.test/profiles";
export const FULL_PROFILE = `${PROFILES}/full.json`;

export interface RpcReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: -- test replies are inspected structurally
  body: any;
}

export interface PostOptions {
  /** Send closed-tier calls unsigned, as an anonymous agent. */
  readonly anonymous?: boolean;
  /** Sign every tool call, not only the closed-tier ones: the session then has an authenticated owner. */
  readonly signed?: boolean;
}

const SIGNED_TOOLS = new Set(["complete_checkout", "get_order"]);

// Anonymous budgets are per client IP: each test file is its own client, as on the internet.
const octet = () => Math.floor(Math.random() * 254) + 1;
export const CLIENT_IP = `10.${octet()}.${octet()}.${octet()}`;

export async function post(
  body: unknown,
  headers: Record<string, string> = {},
  options: PostOptions = {},
): Promise<RpcReply> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const sent = new Headers({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "cf-connecting-ip": CLIENT_IP,
    ...headers,
  });
  const profile = options.anonymous ? undefined : closedTierProfile(body, options.signed === true);
  if (profile && !sent.has("signature") && !sent.has("authorization")) {
    if (!sent.has("ucp-agent")) sent.set("ucp-agent", `profile="${profile}"`);
    // A signed complete/cancel covers its key (src/pipeline/idempotency-key.ts), as a real platform sends it.
    const key = metaKey(body);
    if (key !== undefined && !sent.has("idempotency-key")) sent.set("idempotency-key", key);
    await signRequest({ method: "POST", url: ENDPOINT, headers: sent, body: text }, await platformKey());
  }
  const res = await exports.default.fetch(ENDPOINT, { method: "POST", headers: sent, body: text });
  const answer = await res.text();
  return { status: res.status, headers: res.headers, body: answer ? JSON.parse(answer) : undefined };
}

let signingKey: Promise<SigningKey> | undefined;

export function platformKey(): Promise<SigningKey> {
  signingKey ??= importSigningKey(JSON.stringify(PLATFORM_KEY)).then((k) => {
    if (!k.ok) throw new Error(`test platform key: ${JSON.stringify(k.error)}`);
    return k.value;
  });
  return signingKey;
}

/** The profile a closed-tier call acts for (tools/call or the direct-method form), if any. */
function closedTierProfile(body: unknown, everyTool = false): string | undefined {
  if (!isPlainObject(body) || !isPlainObject(body.params)) return undefined;
  const { method, params } = body;
  const tool = method === "tools/call" ? params.name : method;
  if (typeof tool !== "string" || !(everyTool || SIGNED_TOOLS.has(tool))) return undefined;
  const args = method === "tools/call" ? params.arguments : params;
  const carriers = [
    isPlainObject(args) ? args.meta : undefined,
    params._meta,
    isPlainObject(args) ? args._meta : undefined,
  ];
  for (const meta of carriers) {
    if (!isPlainObject(meta)) continue;
    for (const holder of [meta["ucp-agent"], meta.ucp]) {
      if (isPlainObject(holder) && typeof holder.profile === "string") return holder.profile;
    }
  }
  return undefined;
}

/** meta["idempotency-key"] of a tools/call, when it is a string a header can carry. */
function metaKey(body: unknown): string | undefined {
  if (!isPlainObject(body) || !isPlainObject(body.params)) return undefined;
  const args = body.method === "tools/call" ? body.params.arguments : body.params;
  const key = isPlainObject(args) && isPlainObject(args.meta) ? args.meta["idempotency-key"] : undefined;
  return typeof key === "string" && /^[\x21-\x7e]+$/.test(key) ? key : undefined;
}

let nextId = 1;

export function rpc(
  method: string,
  params?: unknown,
  headers?: Record<string, string>,
  options: PostOptions = {},
): Promise<RpcReply> {
  return post({ jsonrpc: "2.0", id: nextId++, method, ...(params === undefined ? {} : { params }) }, headers, options);
}

export function meta(profile = FULL_PROFILE, extra: Record<string, unknown> = {}) {
  return { "ucp-agent": { profile }, ...extra };
}

/** tools/call with `arguments = { meta, ...args }`. */
export function callTool(name: string, args: Record<string, unknown>, profile = FULL_PROFILE): Promise<RpcReply> {
  return rpc("tools/call", { name, arguments: { meta: meta(profile), ...args } });
}
