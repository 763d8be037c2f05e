/**
 * Issue 5's figures: (1) traffic under the limit is not slowed: the same bundle with and
 * without the rate-limit bindings, as two worker entries in one Miniflare, measured in
 * alternating rounds (bench/paired.ts); (2) a burst over a small limit from one client IP:
 * how many are refused, with what answer, how fast, and that another IP is still served.
 */
import http from "node:http";
import { type CpuShare, cpuMeter } from "./cpu";
import { percentile, post, type Scenario } from "./load";
import type { PairGroup } from "./paired";
import { checkUcpSuccess, getProductBody, MCP_PATH } from "./scenarios";
import { BURST_HOST, BURST_LIMIT, RATE_LIMITED_HOST, UNLIMITED_HOST, UNLIMITED_TWIN_HOST } from "./server";

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

/**
 * Rate-limited copy (A) against the copy without bindings (B), for ping and get_product; and
 * an A/A control (two copies without the limiter) showing how far two identical copies differ.
 */
export function rateLimitPairs(origin: string, productIds: readonly string[]): PairGroup[] {
  const port = new URL(origin).port;
  const mcp = `${origin}${MCP_PATH}`;
  const on = { host: `${RATE_LIMITED_HOST}:${port}` };
  const off = { host: `${UNLIMITED_HOST}:${port}` };
  const twin = { host: `${UNLIMITED_TWIN_HOST}:${port}` };
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
    { name: "ratelimit_aa", a: ping("ping, no limiter (twin)", twin), b: ping("ping, no limiter", off) },
    {
      name: "ratelimit_get_product",
      a: product("get_product, limiter on", on),
      b: product("get_product, no limiter", off),
    },
  ];
}

export interface BurstResult {
  readonly limit: number;
  /** Bursts, each from a fresh client IP (so a fresh budget), pooled for the latency figures. */
  readonly bursts: number;
  /** Requests per burst. */
  readonly sent: number;
  readonly concurrency: number;
  /** Seconds per burst, slowest. */
  readonly seconds: number;
  /** 200 answers per burst. */
  readonly okPerBurst: readonly number[];
  readonly ok: number;
  readonly limited: number;
  readonly other: number;
  /** 429 answers whose body is not exactly limitedBody(id), or whose retry-after is not 60. */
  readonly badBodies: number;
  readonly badRetryAfter: number;
  readonly firstProblem?: string;
  readonly okMs: { p50: number; p99: number };
  readonly limitedMs: { p50: number; p99: number };
  /** Another client IP, pinging one request at a time while each burst runs. */
  readonly otherIp: { sent: number; ok: number };
  /** After each burst: its IP still refused, the other IP still served (statuses seen). */
  readonly afterwards: { burstIp: readonly number[]; otherIp: readonly number[] };
  /** The window (Miniflare: fixed, aligned to the wall-clock minute) did not roll over mid-burst. */
  readonly oneWindow: boolean;
  /** Cores used during the bursts, by party (a disturbed burst inflates both latencies). */
  readonly cpu: CpuShare;
  readonly pass: boolean;
}

const WARM_IP = "192.0.2.1";
/** Documentation ranges (RFC 5737): burst k comes from 203.0.113.k, its bystander from 198.51.100.k. */
const burstIp = (k: number) => `203.0.113.${k + 1}`;
const otherIp = (k: number) => `198.51.100.${k + 1}`;

interface Answer {
  status: number;
  text: string;
  retryAfter: string | undefined;
  ms: number;
  id: number;
}

type Send = (ip: string, id: number) => Promise<Answer>;

export async function runBurst(
  origin: string,
  sent: number,
  concurrency: number,
  bursts: number,
): Promise<BurstResult> {
  const url = new URL(`${origin}${MCP_PATH}`);
  const host = `${BURST_HOST}:${url.port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency + 1 });
  const send: Send = async (ip, id) => {
    const t0 = performance.now();
    const r = await post(agent, url, pingBody(id), 30_000, { host, "cf-connecting-ip": ip });
    const retryAfter = r.headers["retry-after"];
    const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    return { status: r.status, text: r.text, retryAfter: header, ms: performance.now() - t0, id };
  };
  try {
    // Warm up under a key of its own (its budget is separate): the isolate, the sockets, and
    // both the served and the refused path, so neither side of the latency comparison is
    // the one still running cold code.
    let warm = 0;
    const warmer = async () => {
      while (warm < 2 * BURST_LIMIT) await send(WARM_IP, ++warm);
    };
    await Promise.all(Array.from({ length: concurrency + 1 }, warmer));
    // Miniflare's limiter counts in fixed windows aligned to the minute: a burst straddling
    // two windows would get two budgets. Start well inside one (the bursts take ~1-2 s).
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 500));
    const window = Math.floor(Date.now() / 60_000);
    const runs = [];
    const stopMeter = cpuMeter();
    for (let k = 0; k < bursts; k++) runs.push(await oneBurst(send, k, sent, concurrency));
    const cpu = stopMeter();
    const oneWindow = Math.floor(Date.now() / 60_000) === window;
    return { ...summarize(runs, sent, concurrency, oneWindow), cpu };
  } finally {
    agent.destroy();
  }
}

interface BurstRun {
  answers: Answer[];
  other: Answer[];
  seconds: number;
  afterwards: { burstIp: number; otherIp: number };
}

async function oneBurst(send: Send, k: number, sent: number, concurrency: number): Promise<BurstRun> {
  const answers: Answer[] = [];
  let issued = 0;
  let done = false;
  const t0 = performance.now();
  const client = async () => {
    while (issued < sent) answers.push(await send(burstIp(k), ++issued));
  };
  const other: Answer[] = [];
  const bystander = async () => {
    // Well under the limit: only asks whether another IP still gets through during the burst.
    while (!done && other.length < BURST_LIMIT / 2) other.push(await send(otherIp(k), other.length + 1));
  };
  const otherRun = bystander();
  await Promise.all(Array.from({ length: concurrency }, client));
  done = true;
  await otherRun;
  const seconds = (performance.now() - t0) / 1000;
  const afterwards = {
    burstIp: (await send(burstIp(k), sent + 1)).status,
    otherIp: (await send(otherIp(k), BURST_LIMIT)).status,
  };
  return { answers, other, seconds, afterwards };
}

function summarize(
  runs: readonly BurstRun[],
  sent: number,
  concurrency: number,
  oneWindow: boolean,
): Omit<BurstResult, "cpu"> {
  const answers = runs.flatMap((r) => r.answers);
  const other = runs.flatMap((r) => r.other);
  const ok = answers.filter((a) => a.status === 200);
  const limited = answers.filter((a) => a.status === 429);
  const badBodies = limited.filter((a) => a.text !== limitedBody(a.id));
  const badRetryAfter = limited.filter((a) => a.retryAfter !== "60");
  const okProblem = ok.map((a) => checkPing(a.status, a.text)).find(Boolean);
  const firstProblem =
    okProblem ??
    (badBodies[0] ? `429 body: ${badBodies[0].text.slice(0, 300)}` : undefined) ??
    (badRetryAfter[0] ? `429 retry-after: ${badRetryAfter[0].retryAfter}` : undefined) ??
    answers.find((a) => a.status !== 200 && a.status !== 429)?.text.slice(0, 300);
  const okPerBurst = runs.map((r) => r.answers.filter((a) => a.status === 200).length);
  const otherOk = other.filter((a) => a.status === 200).length;
  const afterwards = { burstIp: runs.map((r) => r.afterwards.burstIp), otherIp: runs.map((r) => r.afterwards.otherIp) };
  const latency = (list: readonly Answer[]) => {
    const sorted = Float64Array.from(list.map((a) => a.ms)).sort();
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  };
  return {
    limit: BURST_LIMIT,
    bursts: runs.length,
    sent,
    concurrency,
    seconds: Math.max(...runs.map((r) => r.seconds)),
    okPerBurst,
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
      okPerBurst.every((n) => n === BURST_LIMIT) &&
      limited.length === runs.length * (sent - BURST_LIMIT) &&
      badBodies.length === 0 &&
      badRetryAfter.length === 0 &&
      !okProblem &&
      runs.every((r) => r.other.length > 0) &&
      otherOk === other.length &&
      afterwards.burstIp.every((status) => status === 429) &&
      afterwards.otherIp.every((status) => status === 200),
  };
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");

export function burstMarkdown(b: BurstResult): string[] {
  const statuses = (list: readonly number[]) => [...new Set(list)].join("/");
  return [
    `Burst over the limit (RATE_LIMIT_ANONYMOUS = ${b.limit} per 60 s on its own worker copy): ${b.bursts} bursts of ${b.sent} pings, ` +
      `each from a fresh client IP, at C=${b.concurrency} (slowest burst ${b.seconds.toFixed(2)} s); latencies pooled over the bursts. ` +
      `Cores during the bursts, client / workerd / others (steal): ${b.cpu.client.toFixed(2)} / ${b.cpu.workerd.toFixed(2)} / ${b.cpu.others.toFixed(2)} (${b.cpu.steal.toFixed(2)}).`,
    "",
    "| answers | count | p50 ms | p99 ms |",
    "|---|---:|---:|---:|",
    `| 200 | ${b.ok} | ${ms(b.okMs.p50)} | ${ms(b.okMs.p99)} |`,
    `| 429 | ${b.limited} | ${ms(b.limitedMs.p50)} | ${ms(b.limitedMs.p99)} |`,
    ...(b.other ? [`| other | ${b.other} | | |`] : []),
    "",
    `- ${b.pass ? "PASS" : "FAIL"}: served per burst ${b.okPerBurst.join(", ")} (want ${b.limit}); ${b.limited} refused in all; ` +
      `429 bodies not exactly the rate_limited error: ${b.badBodies}; retry-after ≠ 60: ${b.badRetryAfter}.`,
    `- Another IP during the bursts: ${b.otherIp.ok}/${b.otherIp.sent} served. After each burst: its IP got ${statuses(b.afterwards.burstIp)}, the other IP ${statuses(b.afterwards.otherIp)}.`,
    ...(b.oneWindow
      ? []
      : ["- NOTE: the limiter's minute window rolled over during the bursts; counts may exceed the limit."]),
    ...(b.firstProblem ? [`- first problem: ${b.firstProblem}`] : []),
    "",
  ];
}
