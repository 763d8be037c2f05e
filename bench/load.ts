/**
 * Bounded closed-loop load: C clients, each sending its next request as soon as the last
 * one is answered, for a fixed time and at most a fixed count. Closed loop keeps the
 * server at C in-flight requests, so latency is not inflated by an unbounded queue.
 * node:http with a keep-alive Agent: cheaper per request than fetch (undici), which
 * matters when client and workerd share 2 cores.
 */
import http from "node:http";
import { type CpuShare, cpuMeter } from "./cpu";

export interface Scenario {
  readonly name: string;
  /** Full target URL; only 127.0.0.1 is allowed. */
  readonly url: string;
  /**
   * Extra request headers: `host` picks a Miniflare worker entry by route while the socket
   * still goes to 127.0.0.1; `cf-connecting-ip` picks the rate-limit key.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Name of the scenario whose p50 is subtracted to estimate server time; none for baselines. */
  readonly baseline?: string;
  /** The next request body (scenarios rotate through their inputs). */
  nextBody(): string;
  /** Cheap per-response check (runs under load); a string names what is wrong. */
  check(status: number, text: string): string | undefined;
  /**
   * A multi-request unit (e.g. a checkout journey): when present it replaces the single
   * post; latency is the whole journey's and a returned string names what went wrong.
   */
  journey?(send: (body: string) => Promise<{ status: number; text: string }>): Promise<string | undefined>;
}

export interface LoadOptions {
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly concurrency: number;
  /** Hard cap per phase, so a loop ends even if the clock misbehaves. */
  readonly maxRequests: number;
  readonly timeoutMs: number;
}

export interface LoadResult {
  readonly name: string;
  readonly concurrency: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly seconds: number;
  readonly rps: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  /** Cores used during the measured phase, by party. */
  readonly cpu: CpuShare;
}

interface Tally {
  latencies: number[];
  errors: number;
  firstError?: string;
}

export async function runScenario(scenario: Scenario, options: LoadOptions): Promise<LoadResult> {
  const client = loadClient(scenario, options);
  try {
    // Warm-up: JIT, isolate caches (index hydration, profile, product docs), sockets.
    await client.round(options.warmupSeconds);
    return await client.round(options.seconds);
  } finally {
    client.close();
  }
}

export interface LoadClient {
  /** One closed-loop phase of `seconds` at the options' concurrency, CPU metered. */
  round(seconds: number): Promise<LoadResult>;
  close(): void;
}

/** A scenario's client whose keep-alive sockets survive across rounds (paired measurements). */
export function loadClient(scenario: Scenario, options: LoadOptions): LoadClient {
  const url = new URL(scenario.url);
  if (url.hostname !== "127.0.0.1") throw new Error(`refusing non-loopback target ${scenario.url}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  return {
    async round(seconds) {
      const started = performance.now();
      const stopMeter = cpuMeter();
      const tally = await closedLoop(scenario, url, agent, options, seconds);
      const cpu = stopMeter();
      const elapsed = (performance.now() - started) / 1000;
      return { ...summarize(scenario.name, tally, elapsed), concurrency: options.concurrency, cpu };
    },
    close: () => agent.destroy(),
  };
}

async function closedLoop(
  scenario: Scenario,
  url: URL,
  agent: http.Agent,
  options: LoadOptions,
  seconds: number,
): Promise<Tally> {
  const tally: Tally = { latencies: [], errors: 0 };
  const deadline = performance.now() + seconds * 1000;
  let issued = 0;
  const client = async () => {
    while (performance.now() < deadline && issued < options.maxRequests) {
      issued++;
      const body = scenario.nextBody();
      const t0 = performance.now();
      let problem: string | undefined;
      try {
        if (scenario.journey) {
          problem = await scenario.journey((next) => post(agent, url, next, options.timeoutMs, scenario.headers));
        } else {
          const { status, text } = await post(agent, url, body, options.timeoutMs, scenario.headers);
          problem = scenario.check(status, text);
        }
        const elapsed = performance.now() - t0;
        if (!problem) tally.latencies.push(elapsed);
      } catch (e) {
        problem = e instanceof Error ? e.message : String(e);
      }
      if (problem) {
        tally.errors++;
        tally.firstError ??= `${problem}\n  request: ${body.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  return tally;
}

function summarize(name: string, tally: Tally, seconds: number): Omit<LoadResult, "cpu" | "concurrency"> {
  const sorted = Float64Array.from(tally.latencies).sort();
  const requests = sorted.length + tally.errors;
  return {
    name,
    requests,
    errors: tally.errors,
    ...(tally.firstError ? { firstError: tally.firstError } : {}),
    seconds,
    rps: requests / seconds,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: http.IncomingHttpHeaders;
}

/** An MCP-style JSON POST (what MCP Streamable HTTP clients send; the server answers JSON). */
export function post(
  agent: http.Agent,
  url: URL,
  body: string,
  timeoutMs: number,
  extraHeaders?: Readonly<Record<string, string>>,
): Promise<Answer> {
  return send(agent, url, {
    method: "POST",
    body,
    timeoutMs,
    headers: { ...extraHeaders, "content-type": "application/json", accept: "application/json, text/event-stream" },
  });
}

export interface SendOptions {
  readonly method: string;
  /** Sent with its content-length; none for a bodiless request. */
  readonly body?: string;
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One request on a (keep-alive) agent, the whole answer read as UTF-8. */
export function send(agent: http.Agent, url: URL, options: SendOptions): Promise<Answer> {
  const { method, body, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        timeout: timeoutMs,
        headers:
          body === undefined ? options.headers : { ...options.headers, "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            headers: response.headers,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no response within ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end(body);
  });
}
