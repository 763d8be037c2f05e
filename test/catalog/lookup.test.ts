import { describe, expect, it } from "vitest";
import { callTool } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";

async function lookup(catalog: Record<string, unknown>) {
  const reply = await callTool("lookup_catalog", { catalog });
  expect(reply.status).toBe(200);
  const payload = reply.body.result.structuredContent;
  expect(validateOfficial(OFFICIAL.lookup, payload).errors).toEqual([]);
  return payload;
}

describe("lookup_catalog", () => {
  it("resolves product ids to the featured variant and variant ids exactly, deduplicated", async () => {
    const { products, messages } = await lookup({ ids: ["prod_abc123", "var_xyz789", "prod_abc123", "var_xyz789"] });
    expect(messages).toBeUndefined();
    expect(products.map((p: { id: string }) => p.id).sort()).toEqual(["prod_abc123", "prod_def456"]);
    const runner = products.find((p: { id: string }) => p.id === "prod_abc123");
    expect(runner.variants).toEqual([
      expect.objectContaining({ id: "var_abc123_blue_10", inputs: [{ id: "prod_abc123", match: "featured" }] }),
    ]);
    const trail = products.find((p: { id: string }) => p.id === "prod_def456");
    expect(trail.variants).toEqual([
      expect.objectContaining({ id: "var_xyz789", inputs: [{ id: "var_xyz789", match: "exact" }] }),
    ]);
  });

  it("returns a product once when several ids resolve into it, each variant carrying its inputs", async () => {
    const { products } = await lookup({ ids: ["var_abc123_red_9", "prod_abc123", "RP-BLU-10", "var_abc123_blue_10"] });
    expect(products).toHaveLength(1);
    const variants = products[0].variants;
    expect(variants.map((v: { id: string }) => v.id)).toEqual(["var_abc123_blue_10", "var_abc123_red_9"]);
    expect(variants[0].inputs).toEqual([
      { id: "prod_abc123", match: "featured" },
      { id: "RP-BLU-10", match: "exact" },
      { id: "var_abc123_blue_10", match: "exact" },
    ]);
  });

  it("reports unknown ids as not_found info messages and still succeeds", async () => {
    const { products, messages } = await lookup({ ids: ["prod_abc123", "prod_notfound1", "prod_notfound2"] });
    expect(products).toHaveLength(1);
    expect(messages).toEqual([
      { type: "info", code: "not_found", content: "prod_notfound1" },
      { type: "info", code: "not_found", content: "prod_notfound2" },
    ]);
    const none = await lookup({ ids: ["prod_invalid"] });
    expect(none.products).toEqual([]);
  });

  it("applies filters after resolution", async () => {
    const { products, messages } = await lookup({
      ids: ["var_abc123_blue_12", "var_abc123_blue_8"],
      filters: { price: { max: 12000 } },
    });
    expect(products[0].variants.map((v: { id: string }) => v.id)).toEqual(["var_abc123_blue_8"]);
    expect(messages).toEqual([{ type: "info", code: "not_found", content: "var_abc123_blue_12" }]);
  });

  it("refuses more than 50 distinct ids with -32602 but accepts 50", async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `prod_${i}`);
    const over = await callTool("lookup_catalog", { catalog: { ids } });
    expect(over.body.error).toMatchObject({ code: -32602, data: { max: 50 } });
    const atLimit = await lookup({ ids: ids.slice(0, 50) });
    expect(atLimit.messages).toHaveLength(50);
    const dupes = await lookup({ ids: Array.from({ length: 200 }, () => "prod_abc123") });
    expect(dupes.products).toHaveLength(1);
  });

  it.each([
    ["no ids", {}],
    ["an empty id list", { ids: [] }],
    ["ids as a string", { ids: "prod_abc123" }],
    ["a numeric id", { ids: [42] }],
  ])("refuses %s with -32602", async (_, catalog) => {
    const reply = await callTool("lookup_catalog", { catalog });
    expect(reply.body.error.code).toBe(-32602);
  });
});
