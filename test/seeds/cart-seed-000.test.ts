/**
 * Seed 000 (cart MCP binding): every request example, as written, answered with the
 * example's shape and validated against the official 2026-04-08 cart schema.
 */
import { describe, expect, it } from "vitest";
import { cartSeedTests, fragments } from "../helpers/cart-seed";
import { post } from "../helpers/mcp";
import { seedDocument } from "../helpers/seeds";

// Absent seed documents skip every suite that reads them (see test/helpers/ucp-material.plugin.ts).
const seed = seedDocument("000") ?? "";

describe.skipIf(!seed)("seed 000 cart examples", () => {
  cartSeedTests(seed);

  it("answers the metadata-only fragment (no cart) with -32602 naming the missing cart", async () => {
    const [fragment] = fragments(seed);
    expect(fragment).toBeDefined();
    const reply = await post(fragment?.request);
    expect(reply.status).toBe(200);
    expect(reply.body.error).toMatchObject({ code: -32602, data: { issues: [{ path: "$.cart" }] } });
  });
});
