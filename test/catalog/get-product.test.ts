import { describe, expect, it } from "vitest";
import { callTool } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";

async function getProduct(catalog: Record<string, unknown>) {
  const reply = await callTool("get_product", { catalog });
  expect(reply.status).toBe(200);
  const payload = reply.body.result.structuredContent;
  expect(validateOfficial(OFFICIAL.getProduct, payload).errors).toEqual([]);
  return payload.product;
}

type Value = { label: string; available: boolean; exists: boolean };
const signals = (product: { options: Array<{ name: string; values: Value[] }> }, name: string) =>
  Object.fromEntries(
    product.options.find((o) => o.name === name)?.values.map((v) => [v.label, [v.available, v.exists]]) ?? [],
  );

describe("get_product", () => {
  it("narrows to the selection and signals availability relative to it", async () => {
    const product = await getProduct({
      id: "prod_abc123",
      selected: [{ name: "Color", label: "Blue" }],
      preferences: ["Color", "Size"],
    });
    expect(product.selected).toEqual([{ name: "Color", label: "Blue" }]);
    expect(product.variants.map((v: { id: string }) => v.id).sort()).toEqual(
      ["var_abc123_blue_10", "var_abc123_blue_12", "var_abc123_blue_8", "var_abc123_blue_9"].sort(),
    );
    expect(signals(product, "Color")).toEqual({ Blue: [true, true], Red: [true, true], Green: [false, true] });
    expect(signals(product, "Size")).toEqual({
      "8": [true, true],
      "9": [true, true],
      "10": [true, true],
      "11": [false, false],
      "12": [true, true],
    });
  });

  it("puts a requested variant first and takes its options as the selection, ignoring a conflicting one", async () => {
    const product = await getProduct({ id: "var_abc123_red_11", selected: [{ name: "Color", label: "Green" }] });
    expect(product.id).toBe("prod_abc123");
    expect(product.variants[0].id).toBe("var_abc123_red_11");
    expect(product.selected).toEqual([
      { name: "Color", label: "Red" },
      { name: "Size", label: "11" },
    ]);
  });

  it("relaxes from the end of preferences when nothing matches", async () => {
    // Blue has no size 11: keep Color (first preference), drop Size.
    const product = await getProduct({
      id: "prod_abc123",
      selected: [
        { name: "Color", label: "Blue" },
        { name: "Size", label: "11" },
      ],
      preferences: ["Color", "Size"],
    });
    expect(product.selected).toEqual([{ name: "Color", label: "Blue" }]);
    // Size first: keep size 11, drop Color.
    const bySize = await getProduct({
      id: "prod_abc123",
      selected: [
        { name: "Color", label: "Blue" },
        { name: "Size", label: "11" },
      ],
      preferences: ["Size", "Color"],
    });
    expect(bySize.selected).toEqual([{ name: "Size", label: "11" }]);
    expect(
      bySize.variants.every((v: { options: Array<{ label: string }> }) => v.options.some((o) => o.label === "11")),
    ).toBe(true);
    expect(bySize.variants[0].availability.available).toBe(true);
  });

  it("without a selection returns every variant, featured first, anchored on the featured variant", async () => {
    const product = await getProduct({ id: "prod_abc123" });
    expect(product.variants[0].id).toBe("var_abc123_blue_10");
    expect(product.variants.length).toBeGreaterThan(8);
    expect(product.selected).toEqual([
      { name: "Color", label: "Blue" },
      { name: "Size", label: "10" },
    ]);
  });

  it("omits selected and signals for a product without options", async () => {
    const reply = await callTool("search_catalog", {
      catalog: { filters: { available: true }, pagination: { limit: 50 } },
    });
    const plain = reply.body.result.structuredContent.products.find(
      (p: { options?: unknown }) => p.options === undefined,
    );
    const product = await getProduct({ id: plain.id });
    expect(product.selected).toBeUndefined();
    expect(product.variants).toHaveLength(1);
  });

  it("answers an unknown id with -32602 as seed 004 shows", async () => {
    const reply = await callTool("get_product", { catalog: { id: "prod_invalid" } });
    expect(reply.status).toBe(200);
    expect(reply.body.error).toEqual({ code: -32602, message: "Product not found", data: { id: "prod_invalid" } });
  });

  it("ignores selections of options the product does not have", async () => {
    const product = await getProduct({
      id: "prod_abc123",
      selected: [
        { name: "Flavor", label: "Mint" },
        { name: "Color", label: "Red" },
      ],
    });
    expect(product.selected).toEqual([{ name: "Color", label: "Red" }]);
  });
});
