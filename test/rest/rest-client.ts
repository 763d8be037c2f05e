/**
 * Drives the REST binding of the Worker under test over its real fetch handler, as a platform
 * would: `UCP-Agent` on every request, a JSON body, and (with `sign`) an RFC 9421 signature
 * with the test platform's key covering what REST signing lists (spec-digest §10.3).
 */
import { exports } from "cloudflare:workers";
import { signRequest } from "../../src/auth/http-signature";
import { CLIENT_IP, FULL_PROFILE, platformKey } from "../helpers/mcp";

export const REST_ENDPOINT = "https://shop.example.com/ucp";

export interface RestReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: -- replies are inspected structurally
  body: any;
  text: string;
}

export interface RestOptions {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Sign as the test platform (the key every fixture profile publishes). */
  readonly sign?: boolean;
  /** The UCP-Agent profile; `null` sends no UCP-Agent header. */
  readonly profile?: string | null;
  readonly key?: string;
}

export async function rest(method: string, path: string, options: RestOptions = {}): Promise<RestReply> {
  const url = `${REST_ENDPOINT}${path}`;
  const text =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const headers = new Headers({ "cf-connecting-ip": CLIENT_IP, accept: "application/json", ...options.headers });
  if (text !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const profile = options.profile === undefined ? FULL_PROFILE : options.profile;
  if (profile !== null && !headers.has("ucp-agent")) headers.set("ucp-agent", `profile="${profile}"`);
  if (options.key !== undefined) headers.set("idempotency-key", options.key);
  if (options.sign) await signRequest({ method, url, headers, body: text ?? null }, await platformKey());
  const res = await exports.default.fetch(url, { method, headers, ...(text === undefined ? {} : { body: text }) });
  const answer = await res.text();
  let body: unknown;
  try {
    body = answer ? JSON.parse(answer) : undefined;
  } catch {
    body = answer;
  }
  return { status: res.status, headers: res.headers, body, text: answer };
}
