/**
 * The purchase journey (issue 14 item 1): create_checkout → update_checkout (select a
 * shipping option) → complete_checkout → get_order, as an authenticated platform (API key),
 * over MCP and over REST, closed loop at each concurrency, next to the bare Durable Object
 * round trip measured in the same run. One client = one keep-alive socket; a failed step
 * ends its journey and is counted by cause (HTTP status, JSON-RPC or UCP error,
 * ECONNRESET, timeout).
 */
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { MCP_PATH } from "../src/config";
import { cpuMeter, workerdDescriptors } from "./cpu";
import { type LoadOptions, percentile, post, runScenario, send } from "./load";
import { checkRpcResult } from "./scenarios";
import { DO_BASELINE_PATH, PROFILE_URL, type SeedInfo } from "./server";

export const JOURNEY_STEPS = ["create", "update", "complete", "get_order"] as const;
export type Step = (typeof JOURNEY_STEPS)[number];
export type Binding = "mcp" | "rest";

export interface StepFigures {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
}

/** How requests reach the Worker: its own socket, or through Miniflare's entry worker (server.ts). */
export type Via = "direct" | "entry";

export interface JourneyRow {
  readonly binding: Binding;
  readonly via: Via;
  readonly concurrency: number;
  readonly seconds: number;
  readonly journeys: number;
  readonly journeysPerSecond: number;
  /** Requests sent, and how many got no right answer, by cause. */
  readonly requests: number;
  readonly failed: number;
  readonly causes: Readonly<Record<string, number>>;
  readonly firstFailure?: string;
  readonly journeyP50: number;
  readonly journeyP99: number;
  readonly steps: Readonly<Record<Step, StepFigures>>;
  /** workerd CPU per completed journey (ms), from /proc. */
  readonly workerdCpuMsPerJourney: number;
  /** With several rounds: each round's journeys/s, in the order run (the row is the median round's). */
  readonly roundRates?: readonly number[];
  readonly cores: { client: number; workerd: number; others: number };
}

export interface DoRow {
  readonly concurrency: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

export interface JourneyReport {
  readonly concurrency: readonly number[];
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly toolsListBytes: number;
  readonly rows: readonly JourneyRow[];
  readonly doRoundtrip: readonly DoRow[];
}

export const ADDRESS = {
  street_address: "1 Market St",
  address_locality: "San Francisco",
  address_region: "CA",
  postal_code: "94105",
  address_country: "US",
};
export const INSTRUMENT = {
  id: "i1",
  handler_id: "mock_payment_handler",
  type: "card",
  credential: { type: "token", token: "success_token" },
};

/** What one step sends; `ok` is the UCP status a right answer carries (none for get_order). */
interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: -- answers are inspected structurally
type Json = any;

class StepFailure extends Error {
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(detail);
  }
}

interface Tally {
  journeys: number[];
  steps: Record<Step, number[]>;
  requests: number;
  causes: Map<string, number>;
  firstFailure?: string;
}

/** One binding's journey: each step's call, and the resource its answer carries. */
interface Wire {
  create(lines: Json, buyer: Json, key: string): Call;
  update(id: string, lines: Json, buyer: Json, selection: Json): Call;
  complete(id: string, key: string): Call;
  getOrder(id: string): Call;
  /** The UCP payload of a 200 answer, or a failure cause. */
  payload(text: string): Json;
}

const META = { "ucp-agent": { profile: PROFILE_URL } };

function mcpCall(name: string, args: Record<string, unknown>, key?: string): Call {
  const meta = key ? { ...META, "idempotency-key": key } : META;
  return {
    method: "POST",
    path: MCP_PATH,
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { meta, ...args } } },
  };
}

const WIRES: Record<Binding, Wire> = {
  mcp: {
    create: (line_items, buyer) =>
      mcpCall("create_checkout", {
        checkout: { line_items, buyer, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
      }),
    update: (id, line_items, buyer, selection) =>
      mcpCall("update_checkout", { id, checkout: { line_items, buyer, fulfillment: selection } }),
    complete: (id, key) =>
      mcpCall("complete_checkout", { id, checkout: { payment: { instruments: [INSTRUMENT] } } }, key),
    getOrder: (id) => mcpCall("get_order", { id }),
    payload(text) {
      const reply = JSON.parse(text) as Json;
      if (reply.error) throw new StepFailure(`JSON-RPC ${reply.error.code}`, text.slice(0, 300));
      return reply.result.structuredContent;
    },
  },
  rest: {
    create: (line_items, buyer, key) => ({
      method: "POST",
      path: "/ucp/checkout-sessions",
      body: { line_items, buyer, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
      idempotencyKey: key,
    }),
    update: (id, line_items, buyer, selection) => ({
      method: "PUT",
      path: `/ucp/checkout-sessions/${id}`,
      body: { line_items, buyer, fulfillment: selection },
    }),
    complete: (id, key) => ({
      method: "POST",
      path: `/ucp/checkout-sessions/${id}/complete`,
      body: { payment: { instruments: [INSTRUMENT] } },
      idempotencyKey: key,
    }),
    getOrder: (id) => ({ method: "GET", path: `/ucp/orders/${id}` }),
    payload: (text) => JSON.parse(text),
  },
};

/** The shipping option to select: express when offered, else the first one (select shipping). */
function selection(checkout: Json): Json {
  const method = checkout.fulfillment?.methods?.[0];
  const group = method?.groups?.[0];
  const options: Json[] = group?.options ?? [];
  const option = options.find((o) => o.id === "express") ?? options[0];
  if (!method || !group || !option) throw new StepFailure("no shipping option", JSON.stringify(checkout).slice(0, 300));
  return { methods: [{ id: method.id, groups: [{ id: group.id, selected_option_id: option.id }] }] };
}

/** Network failures by their code (ECONNRESET, ...); our own timeout by name. */
function networkCause(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const message = e instanceof Error ? e.message : String(e);
  return message.startsWith("no response within") ? "timeout" : message.slice(0, 60);
}

export interface JourneyInputs {
  /** The Worker's own socket (Servers.direct.ucp) or, with `via: "entry"`, Miniflare's entry. */
  readonly origin: string;
  readonly via?: Via;
  readonly apiKey: string;
  /** Products whose default variant can be bought; each journey takes two no other journey took yet. */
  readonly productIds: readonly string[];
}

let journeyNumber = 0;

/** One binding at one concurrency: warm-up, then `seconds` measured. */
export async function runJourneys(
  binding: Binding,
  inputs: JourneyInputs,
  options: LoadOptions,
  concurrency: number,
): Promise<JourneyRow> {
  const agent = new http.Agent({ keepAlive: !freshConnections(), maxSockets: concurrency });
  try {
    await closedLoop(binding, inputs, agent, options, concurrency, options.warmupSeconds);
    const started = performance.now();
    const stop = cpuMeter();
    const tally = await closedLoop(binding, inputs, agent, options, concurrency, options.seconds);
    const cpu = stop();
    const seconds = (performance.now() - started) / 1000;
    return { ...summarize(binding, concurrency, seconds, tally, cpu), via: inputs.via ?? "direct" };
  } finally {
    agent.destroy();
  }
}

async function closedLoop(
  binding: Binding,
  inputs: JourneyInputs,
  agent: http.Agent,
  options: LoadOptions,
  concurrency: number,
  seconds: number,
): Promise<Tally> {
  const wire = WIRES[binding];
  const tally: Tally = {
    journeys: [],
    steps: { create: [], update: [], complete: [], get_order: [] },
    requests: 0,
    causes: new Map(),
  };
  // An MCP agent names its profile in meta; a REST one in the UCP-Agent header.
  const headers: Record<string, string> = { authorization: `Bearer ${inputs.apiKey}` };
  if (binding === "rest") headers["ucp-agent"] = `profile="${PROFILE_URL}"`;
  const send = async (step: Step, call: Call): Promise<Json> => {
    tally.requests++;
    const url = new URL(call.path, inputs.origin);
    const t0 = performance.now();
    let answer: { status: number; text: string };
    try {
      answer = await request(agent, url, call, options.timeoutMs, headers);
    } catch (e) {
      throw new StepFailure(networkCause(e), `${step}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const expected = step === "create" && binding === "rest" ? 201 : 200;
    if (answer.status !== expected)
      throw new StepFailure(`HTTP ${answer.status}`, `${step}: ${answer.text.slice(0, 300)}`);
    const payload = wire.payload(answer.text);
    tally.steps[step].push(performance.now() - t0);
    return payload;
  };
  const expectStatus = (step: Step, payload: Json, status: string) => {
    if (payload?.status === status) return;
    const code = payload?.messages?.[0]?.code ?? payload?.status ?? "?";
    throw new StepFailure(`UCP ${code}`, `${step}: ${JSON.stringify(payload).slice(0, 400)}`);
  };
  const deadline = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const i = journeyNumber++;
      const at = (k: number) => inputs.productIds[k % inputs.productIds.length] as string;
      const lines = [
        { item: { id: at(2 * i) }, quantity: 1 },
        { item: { id: at(2 * i + 1) }, quantity: 1 },
      ];
      const buyer = { email: `buyer${i}@example.com` };
      const t0 = performance.now();
      try {
        const created = await send("create", wire.create(lines, buyer, `bench-create-${i}`));
        expectStatus("create", created, "ready_for_complete");
        const updated = await send("update", wire.update(created.id, lines, buyer, selection(created)));
        expectStatus("update", updated, "ready_for_complete");
        const completed = await send("complete", wire.complete(created.id, `bench-complete-${i}`));
        expectStatus("complete", completed, "completed");
        const order = await send("get_order", wire.getOrder(completed.order.id));
        if (order?.id !== completed.order.id) throw new StepFailure("wrong order", JSON.stringify(order).slice(0, 300));
        tally.journeys.push(performance.now() - t0);
      } catch (e) {
        const cause = e instanceof StepFailure ? e.reason : "client error";
        tally.causes.set(cause, (tally.causes.get(cause) ?? 0) + 1);
        tally.firstFailure ??= e instanceof Error ? e.message : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return tally;
}

function request(
  agent: http.Agent,
  url: URL,
  call: Call,
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  if (call.method === "POST") {
    const extra = call.idempotencyKey ? { ...headers, "idempotency-key": call.idempotencyKey } : headers;
    return post(agent, url, JSON.stringify(call.body), timeoutMs, extra);
  }
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return send(agent, url, {
    method: call.method,
    body,
    timeoutMs,
    headers: {
      ...headers,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
}

function figures(latencies: number[]): StepFigures {
  const sorted = Float64Array.from(latencies).sort();
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

function summarize(
  binding: Binding,
  concurrency: number,
  seconds: number,
  tally: Tally,
  cpu: ReturnType<ReturnType<typeof cpuMeter>>,
): Omit<JourneyRow, "via"> {
  const journeys = figures(tally.journeys);
  const failed = [...tally.causes.values()].reduce((a, b) => a + b, 0);
  const journeysPerSecond = journeys.count / seconds;
  return {
    binding,
    concurrency,
    seconds,
    journeys: journeys.count,
    journeysPerSecond,
    requests: tally.requests,
    failed,
    causes: Object.fromEntries(tally.causes),
    ...(tally.firstFailure ? { firstFailure: tally.firstFailure } : {}),
    journeyP50: journeys.p50,
    journeyP99: journeys.p99,
    steps: {
      create: figures(tally.steps.create),
      update: figures(tally.steps.update),
      complete: figures(tally.steps.complete),
      get_order: figures(tally.steps.get_order),
    },
    workerdCpuMsPerJourney: (cpu.workerd * 1000) / journeysPerSecond,
    cores: { client: cpu.client, workerd: cpu.workerd, others: cpu.others },
  };
}

/** The bare DO round trip (bench/server.ts do-baseline) at one concurrency. */
export async function doRoundtrip(origin: string, options: LoadOptions, concurrency: number): Promise<DoRow> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const result = await runScenario(
    { name: "do_roundtrip", url: `${origin}${DO_BASELINE_PATH}`, nextBody: () => body, check: checkRpcResult },
    { ...options, concurrency },
  );
  return { concurrency, rps: result.rps, p50: result.p50, p99: result.p99, errors: result.errors };
}

/** Bytes of a tools/list answer on the wire (item 5: under 48 KB). */
export async function toolsListBytes(origin: string): Promise<number> {
  const res = await fetch(`${origin}${MCP_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  return (await res.arrayBuffer()).byteLength;
}

/**
 * BENCH_JOURNEY_FRESH_CONNECTIONS=1: one connection per request instead of one keep-alive
 * socket per client. Not a fix but the control of issue 14 item 4 (docs/benchmarks.md,
 * "Nothing fails under load"): under load workerd leaves a keep-alive connection's next
 * request unread and closes the connection after its 5 s pipeline timeout; a new
 * connection's first request is not subject to that timeout.
 */
export function freshConnections(): boolean {
  return process.env.BENCH_JOURNEY_FRESH_CONNECTIONS === "1";
}

/** Concurrency levels of the journey rows (BENCH_JOURNEY_CONCURRENCY, comma-separated). */
export function journeyConcurrency(): number[] {
  const raw = process.env.BENCH_JOURNEY_CONCURRENCY ?? "1,8,32,64";
  const levels = raw.split(",").map(Number);
  if (levels.some((c) => !Number.isInteger(c) || c < 1 || c > 256))
    throw new Error("BENCH_JOURNEY_CONCURRENCY must list integers in [1, 256]");
  return levels;
}

/**
 * Rounds per binding and level (BENCH_JOURNEY_ROUNDS, default 3), MCP and REST interleaved:
 * the issue's own method (three interleaved rounds, medians), so a burst of other load on this
 * shared machine moves one round, not the row.
 */
export function journeyRounds(): number {
  const rounds = Number(process.env.BENCH_JOURNEY_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 9)
    throw new Error("BENCH_JOURNEY_ROUNDS must be an integer in [1, 9]");
  return rounds;
}

/**
 * One row from several rounds: the median round by journeys/s (its latencies and CPU), with
 * every round's requests and failures counted, so a failure in any round shows.
 */
export function medianRound(rounds: readonly JourneyRow[]): JourneyRow {
  const byRate = [...rounds].sort((a, b) => a.journeysPerSecond - b.journeysPerSecond);
  const median = byRate[Math.floor((byRate.length - 1) / 2)] as JourneyRow;
  if (rounds.length === 1) return median;
  const causes: Record<string, number> = {};
  for (const r of rounds) for (const [cause, n] of Object.entries(r.causes)) causes[cause] = (causes[cause] ?? 0) + n;
  const firstFailure = rounds.find((r) => r.firstFailure)?.firstFailure;
  return {
    ...median,
    requests: rounds.reduce((sum, r) => sum + r.requests, 0),
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
    causes,
    ...(firstFailure ? { firstFailure } : {}),
    roundRates: rounds.map((r) => r.journeysPerSecond),
  };
}

/** Units a journey product keeps at least: a full run buys each product about five times. */
const JOURNEY_MIN_UNITS = 50;

/**
 * The products journeys buy: available, and every variant either untracked (backorder,
 * preorder) or stocked with JOURNEY_MIN_UNITS or more. The journeys cycle through this list
 * several times in a full run, and a product bought out would fail the run with the store's
 * correct `out_of_stock` answer, which measures the generated catalog, not the store.
 */
export function journeyProductIds(seeded: Pick<SeedInfo, "products" | "stock">): string[] {
  const stocked = (id: string | undefined) =>
    id === undefined || !Object.hasOwn(seeded.stock, id) || (seeded.stock[id] ?? 0) >= JOURNEY_MIN_UNITS;
  return seeded.products
    .filter((p) => p.variants?.[0]?.availability?.available !== false && (p.variants ?? []).every((v) => stocked(v.id)))
    .map((p) => p.id);
}

/**
 * Waits (at most OBJECTS_SETTLE_MS) until workerd's open descriptors are back near where the
 * journey rows started: local workerd keeps each object's SQLite files open for ~10 s after
 * its last request, and all open databases share one process-wide SQLite heap (512 MiB, full
 * at ~2,500–3,400 of them; then SQLITE_NOMEM), so a round started on the previous round's
 * leftovers measured that limit, not the store (503s at C = 32 after a 122 journeys/s round).
 * Each round starts from what the run started with.
 */
const OBJECTS_SETTLE_MS = 20_000;
async function objectsSettled(baseline: number): Promise<void> {
  const until = Date.now() + OBJECTS_SETTLE_MS;
  while (workerdDescriptors() > baseline + 300 && Date.now() < until) await sleep(500);
}

/** The level whose MCP row is also measured through Miniflare's entry worker, for comparison. */
const ENTRY_LEVEL = 32;

/**
 * Every level in turn: the DO round trip, then MCP and REST in interleaved rounds (journeyRounds),
 * each after waiting for the machine to go quiet; then MCP at C = 32 once more through Miniflare's entry worker (what
 * the first figures went through). Journeys start halfway through the products, away
 * from the ones checkout_journey buys when both run.
 */
export async function measureJourneys(
  inputs: JourneyInputs & { readonly entryOrigin: string; readonly doOrigin: string },
  options: LoadOptions,
  quiet: () => Promise<unknown>,
  step: (message: string) => void,
): Promise<JourneyReport> {
  journeyNumber = Math.floor(inputs.productIds.length / 4);
  const descriptors = workerdDescriptors();
  const settle = async () => {
    await objectsSettled(descriptors);
    await quiet();
  };
  const levels = journeyConcurrency();
  const rows: JourneyRow[] = [];
  const doRows: DoRow[] = [];
  for (const concurrency of levels) {
    await settle();
    step(`do_roundtrip at C=${concurrency}`);
    doRows.push(await doRoundtrip(inputs.doOrigin, options, concurrency));
    const rounds = { mcp: [] as JourneyRow[], rest: [] as JourneyRow[] };
    for (let round = 1; round <= journeyRounds(); round++) {
      for (const binding of ["mcp", "rest"] as const) {
        await settle();
        step(
          `journey over ${binding} at C=${concurrency}, round ${round}: ${options.warmupSeconds} s warm-up + ${options.seconds} s`,
        );
        const row = await runJourneys(binding, inputs, options, concurrency);
        if (row.firstFailure) console.error(`  first failure (${row.failed} total): ${row.firstFailure}`);
        rounds[binding].push(row);
      }
    }
    rows.push(medianRound(rounds.mcp), medianRound(rounds.rest));
  }
  if (levels.includes(ENTRY_LEVEL)) {
    await settle();
    step(`journey over mcp at C=${ENTRY_LEVEL} through Miniflare's entry worker`);
    const row = await runJourneys("mcp", { ...inputs, origin: inputs.entryOrigin, via: "entry" }, options, ENTRY_LEVEL);
    if (row.firstFailure) console.error(`  first failure (${row.failed} total): ${row.firstFailure}`);
    rows.push(row);
  }
  return {
    concurrency: levels,
    seconds: options.seconds,
    warmupSeconds: options.warmupSeconds,
    toolsListBytes: await toolsListBytes(inputs.origin),
    rows,
    doRoundtrip: doRows,
  };
}
