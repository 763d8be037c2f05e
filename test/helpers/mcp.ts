/** Drives the Worker under test over HTTP (its real fetch handler), as an agent would. */
import { exports } from "cloudflare:workers";

export const ENDPOINT = "https://shop.example.com/ucp/mcp";
export const PROFILES = "https://agent.test/profiles";
export const FULL_PROFILE = `${PROFILES}/full.json`;

export interface RpcReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: -- test replies are inspected structurally
  body: any;
}

export async function post(body: unknown, headers: Record<string, string> = {}): Promise<RpcReply> {
  const res = await exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

let nextId = 1;

export function rpc(method: string, params?: unknown, headers?: Record<string, string>): Promise<RpcReply> {
  return post({ jsonrpc: "2.0", id: nextId++, method, ...(params === undefined ? {} : { params }) }, headers);
}

export function meta(profile = FULL_PROFILE, extra: Record<string, unknown> = {}) {
  return { "ucp-agent": { profile }, ...extra };
}

/** tools/call with `arguments = { meta, ...args }`. */
export function callTool(name: string, args: Record<string, unknown>, profile = FULL_PROFILE): Promise<RpcReply> {
  return rpc("tools/call", { name, arguments: { meta: meta(profile), ...args } });
}
