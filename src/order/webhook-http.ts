/**
 * One webhook attempt over HTTP: the stored body in the receiving platform's version
 * (webhook-version.ts), Standard Webhooks ids, UCP-Agent naming the merchant's profile of that
 * version, and an RFC 9421 signature by the merchant key (signed afresh per
 * attempt, so `created` is always recent). Refuses to send unsigned (the spec makes
 * signing a MUST) or to a URL the outbound guard rejects; both count as failed attempts, so
 * fixing the configuration lets the retries through.
 */

import { signRequest } from "../auth/http-signature";
import type { SigningKey } from "../auth/signing-keys";
import { checkOutboundUrl, type OutboundAllowList } from "../lib/outbound-url";
import { readCappedBytes } from "../lib/read-capped";
import type { WireContext } from "../ucp/wire";
import type { AttemptResult, WebhookRow } from "./webhook-row";
import { merchantProfileUrl, renderWebhook } from "./webhook-version";

const TIMEOUT_MS = 10_000;
/** How much of a platform's answer is read (and thrown away); past it the body is cancelled. */
const ANSWER_READ_BYTES = 64 * 1024;

export interface WebhookSenderSettings {
  /** The merchant's origin: UCP-Agent names our profile there of the body's version. */
  readonly origin: string;
  /** What the body's version's wire may read (the store's settings). */
  readonly wire: WireContext;
  readonly key: SigningKey | undefined;
  readonly allow: OutboundAllowList;
  readonly fetcher?: typeof fetch;
}

export async function postWebhook(row: WebhookRow, settings: WebhookSenderSettings): Promise<AttemptResult> {
  if (!settings.key) return { delivered: false, error: "MERCHANT_SIGNING_KEY is not set: webhooks must be signed" };
  const url = checkOutboundUrl(row.url, settings.allow);
  if (!url.ok) return { delivered: false, error: `webhook URL refused: ${url.error}` };
  const { body, version } = renderWebhook(row.body, settings.wire);
  const headers = new Headers({
    "content-type": "application/json",
    "ucp-agent": `profile="${merchantProfileUrl(settings.origin, version)}"`,
    "webhook-id": row.id,
    "webhook-timestamp": String(Math.floor(row.occurred_at / 1000)),
  });
  await signRequest({ method: "POST", url: url.value.href, headers, body }, settings.key);
  try {
    const response = await (settings.fetcher ?? fetch)(url.value.href, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await discardAnswer(response);
    const delivered = response.status >= 200 && response.status < 300;
    return delivered
      ? { delivered, status: response.status }
      : { delivered, status: response.status, error: `HTTP ${response.status}` };
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return { delivered: false, error: timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : "connection failed" };
  }
}

/**
 * A short answer is read to its end so the runtime keeps the connection for the next webhook
 * to this platform: a cancelled body closes it, and every webhook paid for a new connection
 * (issue 29). A long one is cut off at ANSWER_READ_BYTES. The status is all an attempt needs,
 * so a body that breaks off does not make a delivered webhook a failed one.
 */
async function discardAnswer(response: Response): Promise<void> {
  try {
    await readCappedBytes(response, ANSWER_READ_BYTES);
  } catch {
    // Nothing to do: the status has arrived.
  }
}
