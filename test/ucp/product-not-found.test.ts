/**
 * get_product's unknown id on MCP: 2026-04-08 keeps seed 004's -32602; at 2026-08-25 it is an
 * application outcome (shopping/catalog/mcp.md "Product Not Found"): a successful result
 * whose structuredContent is the error envelope, in that version.
 */
import { describe, expect, it } from "vitest";
import { callTool, PROFILES } from "../helpers/mcp";
import { CURRENT, validateCurrent } from "../helpers/official-schema-current";

const unknown = { catalog: { id: "prod_does_not_exist" } };

describe("get_product with an id that resolves to nothing, over MCP", () => {
  it("2026-08-25: a result carrying the not_found error envelope at 2026-08-25", async () => {
    const reply = await callTool("get_product", unknown, `${PROFILES}/v2026-08-25/full.json`);
    expect(reply.status).toBe(200);
    expect(reply.body.error).toBeUndefined();
    const payload = reply.body.result.structuredContent;
    expect(payload).toMatchObject({
      ucp: { version: "2026-08-25", status: "error" },
      messages: [{ type: "error", code: "not_found", severity: "unrecoverable" }],
    });
    expect(reply.body.result.content[0].text).toBe(JSON.stringify(payload));
    const valid = validateCurrent(CURRENT.errorResponse, payload);
    expect(valid.errors).toEqual([]);
  });

  it("2026-04-08: -32602, as seed 004 has it", async () => {
    const reply = await callTool("get_product", unknown, `${PROFILES}/full.json`);
    expect(reply.body.error).toMatchObject({ code: -32602, message: "Product not found" });
  });
});
