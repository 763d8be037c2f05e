/**
 * The journey bench's rounds (bench/journey.ts medianRound): a row is the median round by
 * journeys/s, and a failure in any round still shows in the row.
 */
import { describe, expect, it } from "vitest";
import { type JourneyRow, medianRound } from "../../bench/journey";

const steps = { p50: 1, p99: 2, count: 1 };
function round(rate: number, failed = 0, p99 = 500): JourneyRow {
  return {
    binding: "mcp",
    via: "direct",
    concurrency: 32,
    seconds: 10,
    journeys: rate * 10,
    journeysPerSecond: rate,
    requests: rate * 40,
    failed,
    causes: failed ? { ECONNRESET: failed } : {},
    ...(failed ? { firstFailure: "create: socket hang up" } : {}),
    journeyP50: 300,
    journeyP99: p99,
    steps: { create: steps, update: steps, complete: steps, get_order: steps },
    workerdCpuMsPerJourney: 10,
    cores: { client: 0.1, workerd: 1, others: 0 },
  } as JourneyRow;
}

describe("journey rounds", () => {
  it("reports the median round's figures, with every round's rate", () => {
    const row = medianRound([round(110, 0, 400), round(90, 0, 900), round(100, 0, 600)]);
    expect(row.journeysPerSecond).toBe(100);
    expect(row.journeyP99).toBe(600);
    expect(row.roundRates).toEqual([110, 90, 100]);
    expect(row.requests).toBe(110 * 40 + 90 * 40 + 100 * 40);
  });

  it("counts failures from every round, not only the median one", () => {
    const row = medianRound([round(110), round(90, 3), round(100)]);
    expect(row.journeysPerSecond).toBe(100);
    expect(row.failed).toBe(3);
    expect(row.causes).toEqual({ ECONNRESET: 3 });
    expect(row.firstFailure).toBe("create: socket hang up");
  });

  it("leaves a single round as it is", () => {
    const only = round(97);
    expect(medianRound([only])).toBe(only);
  });
});
