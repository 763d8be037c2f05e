/**
 * Bursts of requests with broken credentials (test/auth/rate-limit.test.ts,
 * bad-credentials.test.ts), and the profile fetches they caused, counted by the fixture server.
 */
import { exports } from "cloudflare:workers";
import { signRequest } from "../../src/auth/http-signature";
import { ENDPOINT, platformKey } from "./mcp";

export const BATCH = 50;

export async function profileHits(prefix: string): Promise<number> {
  const res = await fetch(`https://fixtures.test/hits?prefix=${encodeURIComponent(prefix)}`);
  return ((await res.json()) as { hits: number }).hits;
}

/** A search call signed with the test platform's key whose signature is then broken. */
export async function badlySigned(ip: string, profile: string): Promise<{ status: number; code?: string }> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_catalog", arguments: { meta: { "ucp-agent": { profile } }, catalog: { query: "shirt" } } },
  });
  const headers = new Headers({
    "content-type": "application/json",
    accept: "application/json",
    "cf-connecting-ip": ip,
    "ucp-agent": `profile="${profile}"`,
  });
  await signRequest({ method: "POST", url: ENDPOINT, headers, body }, await platformKey());
  const sig = headers.get("signature") ?? "";
  headers.set(
    "signature",
    sig.replace(/:(.)/, (_m, c) => `:${c === "A" ? "B" : "A"}`),
  );
  const res = await exports.default.fetch(ENDPOINT, { method: "POST", headers, body });
  const reply = (await res.json()) as { error?: { data?: { code?: string } } };
  return { status: res.status, code: reply.error?.data?.code };
}

export async function withApiKey(ip: string, key: string): Promise<number> {
  const res = await exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip, authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }),
  });
  await res.body?.cancel();
  return res.status;
}

/**
 * Requests in concurrent batches until a batch is refused with 429 (at most 800); the statuses
 * in order. Room for several budgets: the limiter's windows are fixed minutes, and one full CI
 * run saw 400 bad signatures from one address pass without a 429 (cause not found; a window
 * rollover alone cannot explain all 400, so the pool's limiter state may start afresh while
 * other files run). The bound the tests assert is on fetches per request let through.
 */
export async function burst(send: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let batch = 0; batch < 800 / BATCH; batch++) {
    const replies = await Promise.all(Array.from({ length: BATCH }, (_, j) => send(batch * BATCH + j)));
    statuses.push(...replies);
    if (replies.includes(429)) break;
  }
  return statuses;
}
