/** The purchase benchmark's rows and the markdown table docs/benchmarks.md and the README take as printed. */

export type ServerKind = "reference" | "bundle" | "npm-start";
export type StateKind = "tmpfs" | "disk";

export interface RoundResult {
  readonly server: ServerKind;
  readonly state: StateKind;
  readonly concurrency: number;
  readonly seconds: number;
  /** Journeys with every answer right. */
  readonly journeys: number;
  /** Of those, journeys whose order webhook reached the platform's receiver. */
  readonly delivered: number;
  readonly failedRequests: number;
  readonly firstFailure?: string;
  /** CPU of all the server's processes over the measured seconds, per answered journey. */
  readonly cpuMsPerJourney: number;
  readonly p50: number;
  readonly p99: number;
  readonly rssBytes: number;
  readonly loadAverage: number;
}

export const SERVER_LABEL: Record<ServerKind, string> = {
  reference: "Node reference (samples rest/nodejs), SQLite",
  bundle: "this Worker, bundle on Miniflare",
  "npm-start": "this Worker, `npm start`",
};

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : "–");

/** Journeys per second counts only journeys whose webhook arrived. */
export const deliveredRate = (r: RoundResult) => r.delivered / r.seconds;

export interface Row {
  readonly server: ServerKind;
  readonly state: StateKind;
  readonly concurrency: number;
  readonly rounds: readonly RoundResult[];
}

/** Rounds grouped by server, state and concurrency, in the order first run. */
export function rows(results: readonly RoundResult[]): Row[] {
  const out = new Map<string, Row & { rounds: RoundResult[] }>();
  for (const r of results) {
    const key = `${r.server}/${r.state}/${r.concurrency}`;
    const row = out.get(key) ?? { server: r.server, state: r.state, concurrency: r.concurrency, rounds: [] };
    row.rounds.push(r);
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.concurrency - b.concurrency);
}

export const HEADER =
  "| server | state on | c | journeys/s (rounds) | CPU ms per journey | p50 ms | p99 ms | failed requests | webhooks delivered / journeys | memory after | load average |";

export function tableLine(row: Row): string {
  const rs = row.rounds;
  const rates = rs.map(deliveredRate);
  const range = (xs: number[]) => {
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    return lo === hi ? fixed(lo, 1) : `${fixed(lo, 1)}–${fixed(hi, 1)}`;
  };
  const gb = rs.map((r) => r.rssBytes / 1e9);
  return [
    "",
    SERVER_LABEL[row.server],
    row.state,
    String(row.concurrency),
    `${fixed(mean(rates), 1)}${rs.length > 1 ? ` (${rates.map((x) => fixed(x, 1)).join(", ")})` : ""}`,
    fixed(mean(rs.map((r) => r.cpuMsPerJourney)), 1),
    fixed(mean(rs.map((r) => r.p50)), 0),
    fixed(mean(rs.map((r) => r.p99)), 0),
    String(rs.reduce((s, r) => s + r.failedRequests, 0)),
    `${rs.reduce((s, r) => s + r.delivered, 0)} / ${rs.reduce((s, r) => s + r.journeys, 0)}`,
    `${range(gb)} GB`,
    range(rs.map((r) => r.loadAverage)),
    "",
  ]
    .join(" | ")
    .trim();
}

export function markdownTable(results: readonly RoundResult[], missing: readonly string[] = []): string {
  const lines = [HEADER, `|${" --- |".repeat(3)}${" ---: |".repeat(8)}`, ...rows(results).map(tableLine)];
  for (const m of missing) lines.push(`| ${m} | | | missing | | | | | | | |`);
  return lines.join("\n");
}
