/**
 * Drives the REST binding of the Worker under test over its real fetch handler, as a platform
 * would: `UCP-Agent` on every request, a JSON body, and (with `sign`) an RFC 9421 signature
 * with the test platform's key covering what REST signing lists (spec-digest §10.3).
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { signRequest } from "../../src/auth/http-signature";
import { CLIENT_IP, FULL_PROFILE, platformKey } from "../helpers/mcp";
import { openapiPath, requestErrors } from "./openapi";

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
  /**
   * The body is one the operation's derived request schema refuses, sent on purpose (a test of
   * the server's refusal); the schema must refuse it too. Otherwise every JSON body is checked
   * against that schema before it is sent.
   */
  readonly invalidBody?: boolean;
}

/** Holds a body to the request schema the OpenAPI document and the `ucp_request` annotations give its operation. */
function checkBody(method: string, path: string, body: unknown, invalid: boolean): void {
  if (body === null || typeof body !== "object") return;
  const operation = openapiPath(method, path.split("?")[0] ?? path);
  if (operation === undefined) return;
  const errors = requestErrors(method, operation, body);
  if (invalid)
    expect(errors, `${method} ${path}: the derived request schema accepts a body sent as invalid`).not.toEqual([]);
  else expect(errors, `${method} ${path}: the body fails the derived request schema`).toEqual([]);
}

export async function rest(method: string, path: string, options: RestOptions = {}): Promise<RestReply> {
  const url = `${REST_ENDPOINT}${path}`;
  checkBody(method, path, options.body, options.invalidBody === true);
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
