/**
 * Protocol-level failures (JSON-RPC `error` + HTTP status). Business outcomes are not
 * here: they are results with `messages` (see envelope.ts).
 */
export interface ProtocolError {
  readonly rpcCode: number;
  readonly httpStatus: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
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
