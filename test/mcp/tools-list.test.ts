import { describe, expect, it } from "vitest";
import { rpc } from "../helpers/mcp";

// biome-ignore lint/suspicious/noExplicitAny: -- JSON Schema documents are walked structurally
type Schema = any;

/** Every property in a JSON Schema, with its path, for "descriptions on every field". */
function properties(schema: Schema, path = "$"): Array<{ path: string; schema: Schema }> {
  if (!schema || typeof schema !== "object") return [];
  const out: Array<{ path: string; schema: Schema }> = [];
  for (const [name, child] of Object.entries<Schema>(schema.properties ?? {})) {
    out.push({ path: `${path}.${name}`, schema: child }, ...properties(child, `${path}.${name}`));
  }
  if (schema.items) out.push(...properties(schema.items, `${path}[]`));
  // A branch restating a field the object declares (e.g. its minItems) adds no field.
  const declared = new Set(Object.keys(schema.properties ?? {}));
  for (const key of ["anyOf", "oneOf", "allOf"])
    for (const branch of schema[key] ?? [])
      out.push(
        ...properties(branch, path).filter((p) => !declared.has(p.path.slice(path.length + 1).split(/[.[{]/)[0] ?? "")),
      );
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    out.push(...properties(schema.additionalProperties, `${path}{}`));
  }
  return out;
}

/** The UCP tools of the capabilities we implement, with their required arguments (mcp.openrpc.json). */
const CONTRACT: Record<string, string[]> = {
  search_catalog: ["meta", "catalog"],
  lookup_catalog: ["meta", "catalog"],
  get_product: ["meta", "catalog"],
  create_cart: ["meta", "cart"],
  get_cart: ["meta", "id"],
  update_cart: ["meta", "id", "cart"],
  cancel_cart: ["meta", "id"],
  create_checkout: ["meta", "checkout"],
  get_checkout: ["meta", "id"],
  update_checkout: ["meta", "id", "checkout"],
  complete_checkout: ["meta", "id", "checkout"],
  cancel_checkout: ["meta", "id"],
  get_order: ["meta", "id"],
};

const NEEDS_KEY = ["cancel_cart", "complete_checkout", "cancel_checkout"];

describe("tools/list", () => {
  it("lists exactly the UCP tools of the implemented capabilities", async () => {
    const reply = await rpc("tools/list");
    const names = reply.body.result.tools.map((t: { name: string }) => t.name).sort();
    expect(names).toEqual(Object.keys(CONTRACT).sort());
  });

  it("gives each tool a description, an object inputSchema with the spec's required arguments, and an object outputSchema", async () => {
    const { tools } = (await rpc("tools/list")).body.result;
    for (const tool of tools) {
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect([...tool.inputSchema.required].sort()).toEqual([...(CONTRACT[tool.name] ?? [])].sort());
      const meta = tool.inputSchema.properties.meta;
      expect(meta.required).toContain("ucp-agent");
      expect(meta.required.includes("idempotency-key")).toBe(NEEDS_KEY.includes(tool.name));
      expect(meta.properties["ucp-agent"].properties.profile.format).toBe("uri");
      expect(tool.outputSchema.type).toBe("object");
      expect(tool.outputSchema.anyOf).toHaveLength(2);
    }
  });

  // Output schemas carry no prose (issue 14: tools/list under 48 KB, test/mcp/tool-list-size.test.ts).
  it("describes every field of every input schema", async () => {
    const { tools } = (await rpc("tools/list")).body.result;
    const missing: string[] = [];
    for (const tool of tools) {
      for (const [kind, schema] of [["input", tool.inputSchema]] as const) {
        for (const p of properties(schema)) {
          const described = p.schema.description ?? p.schema.anyOf?.every((b: Schema) => b.description);
          if (!described) missing.push(`${tool.name} ${kind} ${p.path}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("search_catalog's inputSchema carries the pagination and filter contract", async () => {
    const { tools } = (await rpc("tools/list")).body.result;
    const search = tools.find((t: { name: string }) => t.name === "search_catalog");
    const catalog = search.inputSchema.properties.catalog;
    expect(catalog.properties.pagination.properties.limit).toMatchObject({ type: "integer", minimum: 1 });
    expect(catalog.properties.filters.properties.price.properties.max.type).toBe("integer");
    expect(Object.keys(catalog.properties)).toEqual(
      expect.arrayContaining(["query", "filters", "pagination", "context"]),
    );
  });
});
