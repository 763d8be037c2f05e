/**
 * Replays a cart seed document (000: direct methods with `_meta`; 001: `tools/call` with
 * `meta`) in order: create, get, update, cancel. The seed's `cart_abc123` stands for the
 * cart the create made, so later examples target it.
 */
import { expect, it } from "vitest";
import { callTool, post } from "./mcp";
import { OFFICIAL, validateOfficial } from "./official-schema";
import { missingKeys, requestExamples } from "./seed-examples";

// biome-ignore lint/suspicious/noExplicitAny: -- seed payloads are inspected structurally
type Json = any;

/** The operation examples; seed 000 also opens with a metadata-only fragment (no `cart`), see fragments(). */
export function cartExamples(seed: string) {
  return requestExamples(seed).filter((e) => /_cart$/.test(toolName(e.request)) && !isFragment(e.request));
}

export function fragments(seed: string) {
  return requestExamples(seed).filter((e) => isFragment(e.request));
}

function isFragment(request: Json): boolean {
  const args = request.method === "tools/call" ? request.params.arguments : request.params;
  return toolName(request) === "create_cart" && args?.cart === undefined;
}

export function toolName(request: Json): string {
  return request.method === "tools/call" ? request.params.name : request.method;
}

/** The payload of a reply in either shape: structuredContent (tools/call) or the result itself. */
export function payloadOf(result: Json): Json {
  return result?.structuredContent ?? result;
}

export async function replayCartSeed(seed: string): Promise<Array<{ tool: string; payload: Json }>> {
  let cartId: string | undefined;
  const out: Array<{ tool: string; payload: Json }> = [];
  for (const example of cartExamples(seed)) {
    const text = JSON.stringify(example.request);
    const request = JSON.parse(cartId ? text.replaceAll("cart_abc123", cartId) : text);
    const reply = await post(request);
    const tool = toolName(request);
    expect(reply.status, `${tool}: ${JSON.stringify(reply.body)}`).toBe(200);
    expect(reply.body.id).toBe(request.id);
    const payload = payloadOf(reply.body.result);
    expect(validateOfficial(OFFICIAL.cart, payload).errors, tool).toEqual([]);
    expect(payload.ucp).toMatchObject({ version: "2026-04-08", status: "success" });
    if (example.response) {
      // Seed 001 still wraps the cart in a `cart` key (pre-2026-04-08); the fields are what count.
      const expected = payloadOf(example.response.result as Json);
      expect(missingKeys(expected.cart ?? expected, payload), tool).toEqual([]);
    }
    if (tool === "create_cart") cartId = payload.id;
    out.push({ tool, payload });
  }
  return out;
}

/** The tests both cart seeds share (one file each: storage, hence the ledger, is per file). */
export function cartSeedTests(seed: string): void {
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
}
