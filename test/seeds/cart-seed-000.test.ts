/**
 * Seed 000 (cart MCP binding): every request example, as written, answered with the
 * example's shape and validated against the official 2026-04-08 cart schema.
 */
import { describe, expect, it } from "vitest";
import seed from "../../../shared/seeds/000_ae1576003388d73c.txt?raw";
import { cartExamples, fragments, replayCartSeed, toolName } from "../helpers/cart-seed";
import { callTool, post } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";

describe("seed 000 cart examples", () => {
  it("finds the four cart requests", () => {
    expect(cartExamples(seed).map((e) => toolName(e.request))).toEqual([
      "create_cart",
      "get_cart",
      "update_cart",
      "cancel_cart",
    ]);
  });

  it("replays create, get, update and cancel with the example's totals", async () => {
    const [create, get, update, cancel] = await replayCartSeed(seed);
    expect(create?.payload.line_items).toEqual([
      expect.objectContaining({
        id: "li_1",
        item: expect.objectContaining({ id: "item_123", title: "Red T-Shirt", price: 2500 }),
        quantity: 2,
      }),
    ]);
    expect(create?.payload.totals).toEqual([
      { type: "subtotal", amount: 5000 },
      { type: "total", amount: 5000 },
    ]);
    expect(get?.payload).toEqual(create?.payload);
    expect(update?.payload.line_items.map((l: { id: string; quantity: number }) => [l.id, l.quantity])).toEqual([
      ["li_1", 3],
      ["li_2", 1],
    ]);
    expect(update?.payload.totals).toEqual([
      { type: "subtotal", amount: 15000 },
      { type: "total", amount: 15000 },
    ]);
    expect(cancel?.payload.line_items).toEqual(update?.payload.line_items);
    const after = await callTool("get_cart", { id: create?.payload.id });
    const gone = after.body.result.structuredContent;
    expect(validateOfficial(OFFICIAL.errorResponse, gone).errors).toEqual([]);
    expect(gone.messages[0]).toMatchObject({ code: "not_found", severity: "unrecoverable" });
  });

  it("answers the metadata-only fragment (no cart) with -32602 naming the missing cart", async () => {
    const [fragment] = fragments(seed);
    expect(fragment).toBeDefined();
    const reply = await post(fragment?.request);
    expect(reply.status).toBe(200);
    expect(reply.body.error).toMatchObject({ code: -32602, data: { issues: [{ path: "$.cart" }] } });
  });
});
