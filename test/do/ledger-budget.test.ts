/**
 * Issue 10 finding 10 (ledger): an object's idempotency ledger has a total budget. Before,
 * every key kept its whole response for 48 h, so many requests could park megabytes in one
 * session; now the oldest entries beyond LEDGER_MAX_CHARS are dropped (and logged).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import { checkLedger, LEDGER_MAX_CHARS, LEDGER_SCHEMA, recordLedger } from "../../durable-objects/shared/idempotency";

afterEach(() => vi.restoreAllMocks());

describe("the idempotency ledger's budget", () => {
  it("keeps an object's ledger under LEDGER_MAX_CHARS, dropping the oldest entries and saying so", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const stub = env.CHECKOUT.getByName(`t-ledger-${crypto.randomUUID()}`) as DurableObjectStub<CheckoutObject>;
    const entry = 300_000;
    const count = Math.ceil((2 * LEDGER_MAX_CHARS) / entry);
    const result = await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      const sql = state.storage.sql;
      sql.exec(LEDGER_SCHEMA);
      const start = Date.now();
      for (let i = 0; i < count; i++) {
        recordLedger(sql, { key: `update:k${i}`, hash: `h${i}` }, String(i % 10).repeat(entry), start + i);
      }
      const total = sql.exec<{ chars: number }>("SELECT SUM(LENGTH(response)) AS chars FROM ledger").one().chars;
      const now = start + count;
      return {
        total,
        newest: checkLedger(sql, { key: `update:k${count - 1}`, hash: `h${count - 1}` }, now).kind,
        oldest: checkLedger(sql, { key: "update:k0", hash: "h0" }, now).kind,
      };
    });
    expect(result.total).toBeLessThanOrEqual(LEDGER_MAX_CHARS);
    expect(result.total).toBeGreaterThan(LEDGER_MAX_CHARS - entry);
    expect(result.newest).toBe("replay");
    expect(result.oldest).toBe("fresh");
    expect(log.mock.calls.some(([line]) => String(line).includes('"log":"ledger_trimmed"'))).toBe(true);
  });

  it("leaves an ordinary ledger alone", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const stub = env.CHECKOUT.getByName(`t-ledger-${crypto.randomUUID()}`) as DurableObjectStub<CheckoutObject>;
    const kinds = await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      const sql = state.storage.sql;
      sql.exec(LEDGER_SCHEMA);
      const now = Date.now();
      for (let i = 0; i < 50; i++) recordLedger(sql, { key: `k${i}`, hash: `h${i}` }, "x".repeat(5_000), now);
      return Array.from({ length: 50 }, (_, i) => checkLedger(sql, { key: `k${i}`, hash: `h${i}` }, now).kind);
    });
    expect(new Set(kinds)).toEqual(new Set(["replay"]));
    expect(log.mock.calls.some(([line]) => String(line).includes("ledger_trimmed"))).toBe(false);
  });
});
