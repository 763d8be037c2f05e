/**
 * What an order webhook attempt does with the platform's answer (src/order/webhook-http.ts):
 * a short body is read to its end (so the runtime can keep the connection for the next
 * webhook; a cancelled body closes it), a long one is cut off, and only the status decides
 * whether the attempt delivered.
 */
import { describe, expect, it } from "vitest";
import { importSigningKey, type SigningKey } from "../../src/auth/signing-keys";
import type { MerchantConfig } from "../../src/config";
import { postWebhook } from "../../src/order/webhook-http";
import type { WebhookRow } from "../../src/order/webhook-row";

async function merchantKey(): Promise<SigningKey> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const imported = await importSigningKey(JSON.stringify({ ...jwk, kid: "merchant-1", alg: "ES256" }));
  if (!imported.ok) throw new Error(imported.error.content);
  return imported.value;
}

const row: WebhookRow = {
  id: "wh_1",
  seq: 1,
  event: "order.created",
  url: "https://platform.example/webhooks",
  body: JSON.stringify({ ucp: { version: "2026-04-08" }, id: "ord_1" }),
  occurred_at: Date.UTC(2026, 10, 27),
  attempts: 0,
  delivered_at: null,
  failed_at: null,
  next_attempt_at: null,
};

/** An answer streamed in 1 KiB chunks (no content-length), recording how far it was read. */
function streamed(status: number, chunks: number, breakAt?: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === breakAt) return controller.error(new Error("connection reset"));
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(1024));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { seen, response: new Response(body, { status }) };
}

async function attempt(response: Response) {
  const settings = {
    origin: "https://shop.example.com",
    wire: { config: {} as MerchantConfig },
    key: await merchantKey(),
    allow: [],
    fetcher: (async () => response) as typeof fetch,
  };
  return postWebhook(row, settings);
}

describe("an order webhook's answer", () => {
  it("a short answer is read to its end, not cancelled", async () => {
    const { seen, response } = streamed(200, 3);
    expect(await attempt(response)).toEqual({ delivered: true, status: 200 });
    expect(seen).toEqual({ pulled: 3, cancelled: false });
  });

  it("a long answer is cut off after 64 KiB; the attempt still counts by its status", async () => {
    const { seen, response } = streamed(200, 10_000);
    expect(await attempt(response)).toEqual({ delivered: true, status: 200 });
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(66);
  });

  it("a 2xx whose body breaks off is delivered; a 500 is not, whatever its body", async () => {
    expect(await attempt(streamed(202, 5, 2).response)).toEqual({ delivered: true, status: 202 });
    expect(await attempt(streamed(500, 2).response)).toEqual({ delivered: false, status: 500, error: "HTTP 500" });
  });
});
