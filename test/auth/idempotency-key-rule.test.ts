/**
 * Issue 27 item 5: one idempotency-key rule (src/lib/idempotency-key-rule.ts), 1 to 128
 * visible ASCII characters, on every surface that takes a key: MCP meta, the REST header, the
 * admin API's header, and what tools/list tells agents. The admin API used to take 255.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_RULE } from "../../src/lib/idempotency-key-rule";
import { tool } from "../helpers/checkout";
import { rpc } from "../helpers/mcp";
import { rest } from "../rest/rest-client";

const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";
/** A key of exactly `length` characters, unique per call. */
const keyOf = (length: number) => `${crypto.randomUUID()}${"k".repeat(length - 36)}`;
const LINES = { line_items: [{ item: { id: "item_456" }, quantity: 1 }] };

const variant = demo.products
  .flatMap((p) => p.variants as Array<{ id: string; stock?: number }>)
  .find((v) => typeof v.stock === "number" && v.stock >= 5)?.id as string;

function restock(key: string) {
  return exports.default.fetch(`https://shop.example.com/admin/inventory/${encodeURIComponent(variant)}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}`, "idempotency-key": key },
    body: JSON.stringify({ add: 1 }),
  });
}

describe("one idempotency-key rule", { timeout: 30_000 }, () => {
  it("is 128 characters", () => {
    expect(IDEMPOTENCY_KEY_MAX).toBe(128);
    expect(IDEMPOTENCY_KEY_RULE).toBe("1 to 128 visible ASCII characters");
  });

  it("MCP: 128 is taken, 129 refused with the rule", async () => {
    const ok = await tool("create_cart", { cart: LINES }, keyOf(128));
    expect(ok.body.result?.structuredContent.id, JSON.stringify(ok.body)).toEqual(expect.any(String));
    const long = await tool("create_cart", { cart: LINES }, keyOf(129));
    expect(long.body.error).toMatchObject({ code: -32602 });
    expect(long.body.error.message).toContain(IDEMPOTENCY_KEY_RULE);
  });

  it("REST: the Idempotency-Key header, the same", async () => {
    expect((await rest("POST", "/carts", { body: LINES, key: keyOf(128) })).status).toBe(201);
    const long = await rest("POST", "/carts", { body: LINES, key: keyOf(129) });
    expect(long.status, long.text).toBe(400);
    expect(long.body.content).toContain(IDEMPOTENCY_KEY_RULE);
  });

  it("the admin API: the same (it took 255 before)", async () => {
    expect((await restock(keyOf(128))).status).toBe(200);
    const long = await restock(keyOf(129));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      error: "invalid_input",
      issues: [{ path: "Idempotency-Key", message: IDEMPOTENCY_KEY_RULE }],
    });
  });

  it("tools/list tells agents the same bound", async () => {
    const listed = await rpc("tools/list");
    type Schema = { properties?: Record<string, Schema>; maxLength?: number };
    const tools = listed.body.result.tools as Array<{ name: string; inputSchema: Schema }>;
    const keyed = tools.filter((t) => t.inputSchema.properties?.meta);
    expect(keyed.length).toBeGreaterThan(10);
    for (const t of keyed)
      expect(t.inputSchema.properties?.meta?.properties?.["idempotency-key"]?.maxLength, t.name).toBe(
        IDEMPOTENCY_KEY_MAX,
      );
  });
});
