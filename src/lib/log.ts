/**
 * Structured log lines for Workers Logs (docs/operations.md): one per request and one per
 * order event, each a single JSON object on one console.log, which the dashboard indexes
 * field by field. Cheap on purpose: no awaits, no clock reads beyond two Date.now().
 */

/** What the MCP transport learns about a request, filled in as it goes. */
export interface RequestFacts {
  rpc?: string;
  tool?: string;
  profile?: string;
  tier?: string;
  /** `ok`, or the UCP error code (`authentication_required`, `rate_limited`, …) or JSON-RPC code. */
  outcome?: string;
}

export interface RequestLog {
  readonly id: string;
  readonly startedAt: number;
  readonly facts: RequestFacts;
}

const MAX_FIELD = 300;

/** Cloudflare's `cf-ray` names the request in its own logs too; elsewhere (local dev) a fresh id. */
export function startRequestLog(request: Request, now = Date.now()): RequestLog {
  return { id: request.headers.get("cf-ray") ?? crypto.randomUUID(), startedAt: now, facts: {} };
}

export function logRequest(request: Request, log: RequestLog, status: number, now = Date.now()): void {
  const { facts } = log;
  console.log(
    JSON.stringify({
      log: "request",
      request_id: log.id,
      method: request.method,
      path: loggedPath(pathOf(request.url)),
      rpc: facts.rpc,
      tool: facts.tool,
      profile: facts.profile?.slice(0, MAX_FIELD),
      tier: facts.tier,
      outcome: facts.outcome ?? (status < 400 ? "ok" : `http_${status}`),
      status,
      duration_ms: now - log.startedAt,
    }),
  );
}

/**
 * The path of a URL as the runtime serialized it (request.url): from the first `/` after the
 * origin to `?` or `#`, which a serialized path always has percent-encoded. The same string
 * as `new URL(url).pathname` without parsing the URL a second time on every request.
 */
export function pathOf(url: string): string {
  const scheme = url.indexOf("://");
  const start = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return "/";
  let end = url.length;
  for (const mark of ["?", "#"]) {
    const at = url.indexOf(mark, start);
    if (at >= 0 && at < end) end = at;
  }
  return url.slice(start, end);
}

/**
 * Hand-off tokens open a buyer's session (src/lib/handoff-token.ts): they are credentials and
 * never reach the logs. `/checkout/<token>/verify` is logged as `/checkout/<token>/verify`.
 */
const TOKEN_PATH = /^\/(cart|checkout|orders|continue|order)\/[^/]+/;

export function loggedPath(pathname: string): string {
  return pathname.replace(TOKEN_PATH, "/$1/<token>").slice(0, MAX_FIELD);
}

export type OrderEvent = "created" | "fulfillment" | "adjustment" | "webhook_delivered" | "webhook_failed";

/** One order event; `detail` carries the event's own small facts (type, webhook id, status). */
export function logOrderEvent(
  orderId: string,
  event: OrderEvent,
  detail: Readonly<Record<string, string | number | boolean | undefined>> = {},
): void {
  console.log(JSON.stringify({ log: "order", order_id: orderId, event, ...detail }));
}

/** A failure nobody expected (a bug): the stack goes to the log, never to the answer. */
export function logUnhandled(e: unknown): void {
  console.error("unhandled", e instanceof Error ? e.stack : e);
}
