/**
 * Seed 004 (catalog MCP binding): every request example, as written, gets a response of
 * the example's shape that validates against the official 2026-04-08 schema.
 */
import { describe, expect, it } from "vitest";
import { post } from "../helpers/mcp";
import { OFFICIAL, officialSchemasPresent, validateOfficial } from "../helpers/official-schema";
import { jsonBlocks, missingKeys, requestExamples } from "../helpers/seed-examples";
import { seedDocument } from "../helpers/seeds";

// Absent seed documents skip every suite that reads them (see test/helpers/ucp-material.plugin.ts).
const seed = seedDocument("004") ?? "";

const SCHEMA_BY_TOOL: Record<string, string> = {
  search_catalog: OFFICIAL.search,
  lookup_catalog: OFFICIAL.lookup,
  get_product: OFFICIAL.getProduct,
};

const examples = requestExamples(seed);
const toolOf = (request: Record<string, unknown>) => (request.params as { name: string }).name;

describe.skipIf(!seed)("seed 004 request examples", () => {
  it("finds every request example in the seed", () => {
    expect(examples.map((e) => toolOf(e.request))).toEqual([
      "search_catalog",
      "search_catalog",
      "lookup_catalog",
      "get_product",
    ]);
  });

  it.each(examples.map((e, i) => [`#${i + 1} ${toolOf(e.request)}`, e] as const))("%s", async (_, example) => {
    const reply = await post(example.request);
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(example.request.id);
    const payload = reply.body.result.structuredContent;
    expect(validateOfficial(SCHEMA_BY_TOOL[toolOf(example.request)] as string, payload).errors).toEqual([]);
    expect(payload.ucp).toMatchObject({ version: "2026-04-08", status: "success" });
    expect(reply.body.result.content).toEqual([{ type: "text", text: JSON.stringify(payload) }]);
    if (example.response) {
      const expected = (example.response.result as { structuredContent: unknown }).structuredContent;
      // A cursor exists only when there is a next page (the example has 47 matches, the demo fewer).
      const dataDependent = payload.pagination?.has_next_page === false ? ["$.pagination.cursor"] : [];
      expect(missingKeys(expected, payload).filter((k) => !dataDependent.includes(k))).toEqual([]);
    }
  });

  it("search example: blue running shoes in Footwear under $150, the seed's product among them", async () => {
    const reply = await post(examples[1]?.request);
    const { products, pagination } = reply.body.result.structuredContent;
    expect(products.map((p: { id: string }) => p.id)).toContain("prod_abc123");
    for (const p of products) expect(p.variants[0].price.amount).toBeLessThanOrEqual(15000);
    expect(pagination.has_next_page).toBe(false);
  });

  it("get_product example: Green out of stock, no Blue size 11, four Blue variants", async () => {
    const reply = await post(examples[3]?.request);
    const { product } = reply.body.result.structuredContent;
    const color = product.options.find((o: { name: string }) => o.name === "Color").values;
    const size = product.options.find((o: { name: string }) => o.name === "Size").values;
    expect(color.find((v: { label: string }) => v.label === "Green")).toMatchObject({ available: false, exists: true });
    expect(size.find((v: { label: string }) => v.label === "11")).toMatchObject({ available: false, exists: false });
    expect(product.variants).toHaveLength(4);
  });
});

describe.skipIf(!seed)("seed 004 response-only examples", () => {
  const responses = jsonBlocks(seed).filter((b) => (b as { method?: string }).method === undefined) as Array<{
    result?: { structuredContent: { messages?: Array<{ content: string }> } };
    error?: { code: number; data: { id: string } };
  }>;
  const partial = responses.find((r) => r.result?.structuredContent.messages?.length === 2);
  const allMissing = responses.find((r) => r.result?.structuredContent.messages?.[0]?.content === "prod_invalid");
  const notFound = responses.find((r) => r.error);
  const profile = "https://platform.example/profiles/v2026-01/shopping-agent.json";
  const call = (name: string, catalog: unknown) =>
    post({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name, arguments: { meta: { "ucp-agent": { profile } }, catalog } },
    });

  it("partial success: found products plus not_found info messages", async () => {
    const reply = await call("lookup_catalog", { ids: ["prod_abc123", "prod_notfound1", "prod_notfound2"] });
    const payload = reply.body.result.structuredContent;
    expect(validateOfficial(OFFICIAL.lookup, payload).errors).toEqual([]);
    expect(payload.messages).toEqual(partial?.result?.structuredContent.messages);
  });

  it("all products not found: an empty list with the info message", async () => {
    const reply = await call("lookup_catalog", { ids: ["prod_invalid"] });
    expect(reply.body.result.structuredContent.products).toEqual([]);
    expect(reply.body.result.structuredContent.messages).toEqual(allMissing?.result?.structuredContent.messages);
  });

  it("product not found: JSON-RPC -32602 with the id", async () => {
    const reply = await call("get_product", { id: "prod_invalid" });
    expect(reply.body.error).toEqual(notFound?.error);
  });
});

describe.skipIf(!officialSchemasPresent)("the schema check itself", () => {
  it("rejects payloads that break the official schema", () => {
    expect(validateOfficial(OFFICIAL.search, { ucp: { version: "2026-04-08" }, products: "none" }).valid).toBe(false);
    expect(validateOfficial(OFFICIAL.search, { products: [] }).valid).toBe(false);
    expect(validateOfficial(OFFICIAL.profile, { ucp: { version: "2026-04-08", services: {} } }).valid).toBe(false);
    expect(
      validateOfficial(OFFICIAL.profile, { ucp: { version: "latest", services: {}, payment_handlers: {} } }).valid,
    ).toBe(false);
    const badPrice = {
      id: "p",
      title: "t",
      description: { plain: "d" },
      price_range: { min: { amount: 1.5, currency: "USD" }, max: { amount: 2, currency: "USD" } },
      variants: [],
    };
    expect(validateOfficial(OFFICIAL.search, { ucp: { version: "2026-04-08" }, products: [badPrice] }).valid).toBe(
      false,
    );
    expect(
      validateOfficial(OFFICIAL.search, {
        ucp: { version: "2026-04-08" },
        products: [],
        pagination: { has_next_page: true },
      }).valid,
    ).toBe(false);
  });
});
