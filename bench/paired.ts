/**
 * Paired measurement of two scenarios on a shared, noisy machine. Separate 10 s runs of A
 * and B minutes apart compare two different background loads as much as two servers (the
 * get_cart ÷ bare-DO ratio swung 0.43–1.33 that way). Here short rounds of A and B alternate
 * and each adjacent pair gives one ratio, so a slow drift in other load hits both sides of
 * a pair about equally; the median over pairs resists the odd disturbed pair.
 */
import { waitForQuiet } from "./cpu";
import { type LoadOptions, type LoadResult, loadClient, type Scenario } from "./load";

/** A round during which other processes used more cores than this is marked disturbed. */
export const DISTURBED_OTHERS = 0.3;
/** Disturbed pairs are left out of the median only if at least this many clean ones remain. */
const MIN_CLEAN_PAIRS = 3;

export interface PairGroup {
  /** Name for BENCH_ONLY and the report, e.g. cart_pair. */
  readonly name: string;
  /** The side under test (numerator of the rate ratio). */
  readonly a: Scenario;
  /** The reference side. */
  readonly b: Scenario;
}

export interface PairOptions {
  readonly rounds: number;
  readonly roundSeconds: number;
  readonly warmupSeconds: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** Before each pair, wait up to this long for other processes to go quiet (0: never). */
  readonly quietSeconds: number;
}

export interface Round {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  readonly errors: number;
  /** workerd CPU time per request over the round (ms). */
  readonly workerdCpuMs: number;
  /** Cores used by everything but this client and workerd during the round (steal included). */
  readonly others: number;
  readonly steal: number;
}

export interface Pair {
  readonly a: Round;
  readonly b: Round;
  /** Which side ran first: alternated, so "runs second" effects cancel over the pairs. */
  readonly first: "a" | "b";
  /** A req/s ÷ B req/s. */
  readonly rpsRatio: number;
  /** B CPU/request ÷ A CPU/request: the rate ratio a CPU-bound server would reach. */
  readonly cpuRatio: number;
  readonly disturbed: boolean;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface Side {
  readonly name: string;
  /** Medians over the pairs used. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly workerdCpuMs: number;
  readonly errors: number;
}

export interface PairedResult {
  readonly name: string;
  readonly concurrency: number;
  readonly roundSeconds: number;
  readonly pairs: readonly Pair[];
  readonly clean: number;
  /** True when disturbed pairs were left out of the figures below. */
  readonly excludedDisturbed: boolean;
  readonly used: number;
  readonly rpsRatio: Spread;
  readonly cpuRatio: Spread;
  readonly a: Side;
  readonly b: Side;
  readonly maxOthers: number;
  readonly maxSteal: number;
}

export async function runPaired(
  group: PairGroup,
  options: PairOptions,
  log: (message: string) => void,
): Promise<PairedResult> {
  const load: LoadOptions = {
    seconds: options.roundSeconds,
    warmupSeconds: options.warmupSeconds,
    concurrency: options.concurrency,
    maxRequests: Math.ceil(options.roundSeconds * 100_000),
    timeoutMs: options.timeoutMs,
  };
  const clients = { a: loadClient(group.a, load), b: loadClient(group.b, load) };
  try {
    // One warm-up per side (JIT, isolate caches, sockets); the sockets then stay open.
    await clients.a.round(options.warmupSeconds);
    await clients.b.round(options.warmupSeconds);
    const pairs: Pair[] = [];
    for (let i = 0; i < options.rounds; i++) {
      // A B, B A, A B, ...: each side runs first in half the pairs.
      const first = i % 2 === 0 ? "a" : "b";
      // More clean pairs for the median; the ratio is within a pair, so gaps between pairs cost nothing.
      if (options.quietSeconds > 0) await waitForQuiet(options.quietSeconds, DISTURBED_OTHERS);
      const order = first === "a" ? [clients.a, clients.b] : [clients.b, clients.a];
      const done: LoadResult[] = [];
      for (const client of order) done.push(await client.round(options.roundSeconds));
      if (first === "b") done.reverse();
      const [a, b] = done.map(toRound) as [Round, Round];
      const pair: Pair = {
        a,
        b,
        first,
        rpsRatio: a.rps / b.rps,
        cpuRatio: b.workerdCpuMs / a.workerdCpuMs,
        disturbed: a.others > DISTURBED_OTHERS || b.others > DISTURBED_OTHERS,
      };
      pairs.push(pair);
      log(
        `  pair ${i + 1}/${options.rounds} (${first === "a" ? "A B" : "B A"}): ${group.a.name} ${a.rps.toFixed(0)} req/s ` +
          `${a.workerdCpuMs.toFixed(2)} ms CPU, ${group.b.name} ${b.rps.toFixed(0)} req/s ${b.workerdCpuMs.toFixed(2)} ms CPU; ` +
          `ratio ${pair.rpsRatio.toFixed(2)}, CPU ratio ${pair.cpuRatio.toFixed(2)}; others ${a.others.toFixed(2)}/${b.others.toFixed(2)} (steal ${a.steal.toFixed(2)}/${b.steal.toFixed(2)})` +
          (pair.disturbed ? " DISTURBED" : ""),
      );
    }
    return summarize(group, options, pairs);
  } finally {
    clients.a.close();
    clients.b.close();
  }
}

function toRound(result: LoadResult): Round {
  return {
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    requests: result.requests,
    errors: result.errors,
    workerdCpuMs: (result.cpu.workerd * 1000) / result.rps,
    others: result.cpu.others,
    steal: result.cpu.steal,
  };
}

function summarize(group: PairGroup, options: PairOptions, pairs: readonly Pair[]): PairedResult {
  const clean = pairs.filter((p) => !p.disturbed);
  const excludedDisturbed = clean.length >= MIN_CLEAN_PAIRS && clean.length < pairs.length;
  const used = clean.length >= MIN_CLEAN_PAIRS ? clean : pairs;
  const side = (name: string, pick: (p: Pair) => Round): Side => ({
    name,
    rps: median(used.map((p) => pick(p).rps)),
    p50: median(used.map((p) => pick(p).p50)),
    p99: median(used.map((p) => pick(p).p99)),
    workerdCpuMs: median(used.map((p) => pick(p).workerdCpuMs)),
    errors: pairs.reduce((sum, p) => sum + pick(p).errors, 0),
  });
  return {
    name: group.name,
    concurrency: options.concurrency,
    roundSeconds: options.roundSeconds,
    pairs,
    clean: clean.length,
    excludedDisturbed,
    used: used.length,
    rpsRatio: spread(used.map((p) => p.rpsRatio)),
    cpuRatio: spread(used.map((p) => p.cpuRatio)),
    a: side(group.a.name, (p) => p.a),
    b: side(group.b.name, (p) => p.b),
    maxOthers: Math.max(...pairs.flatMap((p) => [p.a.others, p.b.others]).filter(Number.isFinite)),
    maxSteal: Math.max(...pairs.flatMap((p) => [p.a.steal, p.b.steal]).filter(Number.isFinite)),
  };
}

export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function spread(values: readonly number[]): Spread {
  const finite = values.filter(Number.isFinite);
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}
