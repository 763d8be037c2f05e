/**
 * Protocol-level failures (JSON-RPC `error` + HTTP status). Business outcomes are not
 * here: they are results with `messages` (see envelope.ts).
 */
import { AUTH_FAILURES, type AuthFailureCode } from "../auth/failure-codes";
import type { UcpEnvelope } from "./envelope";

export interface ProtocolError {
  readonly rpcCode: number;
  readonly httpStatus: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
  /** HTTP headers that belong with the error (Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Set by the pipeline on an error the tool returned (so after negotiation): the negotiated
   * `ucp` envelope, for a binding that answers this error as a business outcome (REST
   * get_product not found). Never on the wire as such.
   */
  readonly ucp?: UcpEnvelope;
}

export type DiscoveryCode = "invalid_profile_url" | "profile_unreachable" | "profile_malformed" | "version_unsupported";

const DISCOVERY_STATUS: Record<DiscoveryCode, number> = {
  invalid_profile_url: 400,
  profile_unreachable: 424,
  profile_malformed: 422,
  version_unsupported: 422,
};

/** UCP discovery/version failure: JSON-RPC -32001 with the status the spec pairs with the code. */
export function discoveryError(code: DiscoveryCode, content: string, continueUrl?: string): ProtocolError {
  return {
    rpcCode: -32001,
    httpStatus: DISCOVERY_STATUS[code],
    message: code === "version_unsupported" ? "Protocol version not supported" : "UCP discovery failed",
    data: continueUrl ? { code, content, continue_url: continueUrl } : { code, content },
  };
}

/** Structurally invalid tool arguments: -32602 with each issue as a JSONPath. */
export function invalidParams(message: string, data?: Record<string, unknown>): ProtocolError {
  return { rpcCode: -32602, httpStatus: 200, message, ...(data ? { data } : {}) };
}

/** Temporarily unable to serve (storage or a Durable Object unavailable): -32000 + 503. */
export function unavailable(retryAfterSeconds = 1): ProtocolError {
  return {
    rpcCode: -32000,
    httpStatus: 503,
    message: "Temporarily unable to handle the request",
    data: { retry_after: retryAfterSeconds },
  };
}

/**
 * A merchant setting that reached the Worker does not parse (a discount type, an origin):
 * -32000 + 503, like any other inability to serve, with `store_misconfigured` so an agent
 * knows retrying will not help until the merchant fixes and redeploys. The setting is named
 * in the log, not on the wire.
 */
export function storeMisconfigured(): ProtocolError {
  return {
    rpcCode: -32000,
    httpStatus: 503,
    message: "Store misconfigured",
    data: {
      code: "store_misconfigured",
      content: "This store's configuration is invalid; the merchant has been told which setting to fix.",
    },
  };
}

/**
 * 401/403 (and the spec's 400 signature codes), status and JSON-RPC code from the code's
 * entry in AUTH_FAILURES (src/auth/failure-codes.ts). No `WWW-Authenticate` challenge: UCP
 * puts it on REST only, and on the MCP binding a `Bearer` challenge from a server with no
 * OAuth (RFC 9728) metadata sends MCP clients (Inspector, mcp-remote) probing for an OAuth
 * server that does not exist. The body's `code` and `continue_url` say what to do instead.
 */
export function authError(
  code: AuthFailureCode,
  content: string,
  extra: Readonly<Record<string, unknown>> = {},
): ProtocolError {
  const { httpStatus, signature } = AUTH_FAILURES[code];
  const message = signature ? "Signature verification failed" : httpStatus === 403 ? "Forbidden" : "Unauthorized";
  return {
    rpcCode: httpStatus === 400 ? -32600 : -32000,
    httpStatus,
    message,
    data: { code, content, ...extra },
  };
}

/** Over the platform's or tier's request budget: -32000 + 429, retry_after in seconds. */
export function rateLimited(retryAfterSeconds: number, tier: string): ProtocolError {
  return {
    rpcCode: -32000,
    httpStatus: 429,
    message: "Rate limit exceeded",
    data: { code: "rate_limited", retry_after: retryAfterSeconds, tier },
    headers: { "retry-after": String(retryAfterSeconds) },
  };
}
