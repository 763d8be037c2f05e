/**
 * Issue 5's figures: (1) traffic under the limit is not slowed: the same bundle with and
 * without the rate-limit bindings, as two worker entries in one Miniflare, measured in
 * alternating rounds (bench/paired.ts); (2) a burst over a small limit from one client IP:
 * how many are refused, with what answer, how fast, and that another IP is still served.
 */
import http from "node:http";
import { percentile, post, type Scenario } from "./load";
import type { PairGroup } from "./paired";
import { checkRpcResult, checkUcpSuccess, getProductBody, MCP_PATH } from "./scenarios";
import { BURST_HOST, BURST_LIMIT, RATE_LIMITED_HOST, UNLIMITED_HOST } from "./server";

const pingBody = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;

/** What src/ucp/errors.ts rateLimited(60, "anonymous") must put on the wire, byte for byte. */
const limitedBody = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"Rate limit exceeded","data":{"code":"rate_limited","retry_after":60,"tier":"anonymous"}}}`;

/** The bare ping answer: anything else (e.g. a 429) is an error in the under-the-limit rounds. */
function checkPing(status: number, text: string): string | undefined {
  return status === 200 && text.startsWith('{"jsonrpc":"2.0","id":') && text.endsWith(',"result":{}}')
    ? undefined
    : `HTTP ${status}: ${text.slice(0, 300)}`;
}

/** Rate-limited copy (A) against the copy without bindings (B), for ping and get_product. */
export function rateLimitPairs(origin: string, productIds: readonly string[]): PairGroup[] {
  const port = new URL(origin).port;
  const mcp = `${origin}${MCP_PATH}`;
  const on = { host: `${RATE_LIMITED_HOST}:${port}` };
  const off = { host: `${UNLIMITED_HOST}:${port}` };
  const ping = (name: string, headers: Record<string, string>): Scenario => {
    let next = 0;
    return { name, url: mcp, headers, nextBody: () => pingBody(++next), check: checkPing };
  };
  const product = (name: string, headers: Record<string, string>): Scenario => {
    let next = 0;
    const bodies = productIds.map((id, i) => getProductBody(i + 1, id));
    return {
      name,
      url: mcp,
      headers,
      nextBody: () => bodies[next++ % bodies.length] as string,
      check: checkUcpSuccess,
    };
  };
  return [
    { name: "ratelimit_ping", a: ping("ping, limiter on", on), b: ping("ping, no limiter", off) },
    {
      name: "ratelimit_get_product",
      a: product("get_product, limiter on", on),
      b: product("get_product, no limiter", off),
    },
  ];
}

export interface BurstResult {
  readonly limit: number;
  readonly sent: number;
  readonly concurrency: number;
  readonly seconds: number;
  readonly ok: number;
  readonly limited: number;
  readonly other: number;
  /** 429 answers whose body is not exactly limitedBody(id), or whose retry-after is not 60. */
  readonly badBodies: number;
  readonly badRetryAfter: number;
  readonly firstProblem?: string;
  readonly okMs: { p50: number; p99: number };
  readonly limitedMs: { p50: number; p99: number };
  /** A second client IP, pinging one request at a time while the burst runs. */
  readonly otherIp: { sent: number; ok: number };
  /** After the burst: the first IP is still refused, the second still served. */
  readonly afterwards: { firstIpStatus: number; otherIpStatus: number };
  /** The window (Miniflare: fixed, aligned to the wall-clock minute) did not roll over mid-burst. */
  readonly oneWindow: boolean;
  readonly pass: boolean;
}

const BURST_IP = "203.0.113.7";
const OTHER_IP = "198.51.100.9";
const WARM_IP = "192.0.2.1";

interface Answer {
  status: number;
  text: string;
  retryAfter: string | undefined;
  ms: number;
}

export async function runBurst(origin: string, sent: number, concurrency: number): Promise<BurstResult> {
  const url = new URL(`${origin}${MCP_PATH}`);
  const host = `${BURST_HOST}:${url.port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency + 1 });
  const send = async (ip: string, id: number): Promise<Answer> => {
    const t0 = performance.now();
    const r = await post(agent, url, pingBody(id), 30_000, { host, "cf-connecting-ip": ip });
    const retryAfter = r.headers["retry-after"];
    return {
      status: r.status,
      text: r.text,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      ms: performance.now() - t0,
    };
  };
  try {
    // Warm the isolate and open the sockets under a key of its own (its budget is separate).
    await Promise.all(Array.from({ length: concurrency }, (_, i) => send(WARM_IP, i)));
    // Miniflare's limiter counts in fixed windows aligned to the minute: a burst straddling
    // two windows would get two budgets. Start well inside one.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 500));
    const window = Math.floor(Date.now() / 60_000);

    const answers: Array<Answer & { id: number }> = [];
    let issued = 0;
    let done = false;
    const t0 = performance.now();
    const client = async () => {
      while (issued < sent) {
        const id = ++issued;
        answers.push({ ...(await send(BURST_IP, id)), id });
      }
    };
    const other: Answer[] = [];
    const otherClient = async () => {
      // Well under the limit: only asks whether this IP still gets through during the burst.
      while (!done && other.length < BURST_LIMIT / 2) other.push(await send(OTHER_IP, other.length + 1));
    };
    const otherRun = otherClient();
    await Promise.all(Array.from({ length: concurrency }, client));
    done = true;
    await otherRun;
    const seconds = (performance.now() - t0) / 1000;
    const oneWindow = Math.floor(Date.now() / 60_000) === window;
    const afterwards = {
      firstIpStatus: (await send(BURST_IP, sent + 1)).status,
      otherIpStatus: (await send(OTHER_IP, BURST_LIMIT)).status,
    };

    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    const badBodies = limited.filter((a) => a.text !== limitedBody(a.id));
    const badRetryAfter = limited.filter((a) => a.retryAfter !== "60");
    const okProblem = ok.map((a) => checkRpcResult(a.status, a.text)).find(Boolean);
    const firstProblem =
      okProblem ??
      (badBodies[0] ? `429 body: ${badBodies[0].text.slice(0, 300)}` : undefined) ??
      (badRetryAfter[0] ? `429 retry-after: ${badRetryAfter[0].retryAfter}` : undefined) ??
      answers.find((a) => a.status !== 200 && a.status !== 429)?.text.slice(0, 300);
    const otherOk = other.filter((a) => a.status === 200).length;
    const latency = (list: readonly Answer[]) => {
      const sorted = Float64Array.from(list.map((a) => a.ms)).sort();
      return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
    };
    return {
      limit: BURST_LIMIT,
      sent,
      concurrency,
      seconds,
      ok: ok.length,
      limited: limited.length,
      other: answers.length - ok.length - limited.length,
      badBodies: badBodies.length,
      badRetryAfter: badRetryAfter.length,
      ...(firstProblem ? { firstProblem } : {}),
      okMs: latency(ok),
      limitedMs: latency(limited),
      otherIp: { sent: other.length, ok: otherOk },
      afterwards,
      oneWindow,
      pass:
        ok.length === BURST_LIMIT &&
        limited.length === sent - BURST_LIMIT &&
        badBodies.length === 0 &&
        badRetryAfter.length === 0 &&
        !okProblem &&
        other.length > 0 &&
        otherOk === other.length &&
        afterwards.firstIpStatus === 429 &&
        afterwards.otherIpStatus === 200,
    };
  } finally {
    agent.destroy();
  }
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");

export function burstMarkdown(b: BurstResult): string[] {
  return [
    `Burst over the limit (RATE_LIMIT_ANONYMOUS = ${b.limit} per 60 s on its own worker copy): ${b.sent} pings from one client IP at C=${b.concurrency} in ${b.seconds.toFixed(2)} s.`,
    "",
    "| answers | count | p50 ms | p99 ms |",
    "|---|---:|---:|---:|",
    `| 200 | ${b.ok} | ${ms(b.okMs.p50)} | ${ms(b.okMs.p99)} |`,
    `| 429 | ${b.limited} | ${ms(b.limitedMs.p50)} | ${ms(b.limitedMs.p99)} |`,
    ...(b.other ? [`| other | ${b.other} | | |`] : []),
    "",
    `- ${b.pass ? "PASS" : "FAIL"}: ${b.ok} served (want ${b.limit}), ${b.limited} refused; 429 bodies not exactly the rate_limited error: ${b.badBodies}; retry-after ≠ 60: ${b.badRetryAfter}.`,
    `- A second IP during the burst: ${b.otherIp.ok}/${b.otherIp.sent} served. Afterwards: first IP ${b.afterwards.firstIpStatus}, second IP ${b.afterwards.otherIpStatus}.`,
    ...(b.oneWindow
      ? []
      : ["- NOTE: the limiter's minute window rolled over during the burst; counts may exceed the limit."]),
    ...(b.firstProblem ? [`- first problem: ${b.firstProblem}`] : []),
    "",
  ];
}
