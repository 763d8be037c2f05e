/**
 * Issue 14 item 5: a tool list an agent can afford. Every agent pays for tools/list in
 * context before its first call; it was 187 KB (143 KB of output schemas). The bound is
 * on the bytes on the wire, with every input field still described and an output schema
 * per tool that real answers (success and error) still meet.
 */

import { exports } from "cloudflare:workers";
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { ADDRESS, type Json, tool } from "../helpers/checkout";
import { CLIENT_IP, callTool, ENDPOINT } from "../helpers/mcp";

const LIMIT_BYTES = 48 * 1024;

async function toolsList(): Promise<{ bytes: number; tools: Json[] }> {
  const res = await exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes: bytes.byteLength, tools: JSON.parse(new TextDecoder().decode(bytes)).result.tools };
}

/** Every property of an input schema, with its path (inputs publish no $ref: each field is inline). */
function fields(schema: Json, path: string): Array<{ path: string; schema: Json }> {
  if (!schema || typeof schema !== "object") return [];
  const out: Array<{ path: string; schema: Json }> = [];
  for (const [name, child] of Object.entries<Json>(schema.properties ?? {})) {
    out.push({ path: `${path}.${name}`, schema: child }, ...fields(child, `${path}.${name}`));
  }
  if (schema.items) out.push(...fields(schema.items, `${path}[]`));
  if (typeof schema.additionalProperties === "object") out.push(...fields(schema.additionalProperties, `${path}{}`));
  // A branch restating a field the object declares (e.g. its minItems) adds no field.
  const declared = new Set(Object.keys(schema.properties ?? {}));
  for (const key of ["anyOf", "oneOf", "allOf"])
    for (const branch of schema[key] ?? [])
      out.push(
        ...fields(branch, path).filter((p) => !declared.has(p.path.slice(path.length + 1).split(/[.[{]/)[0] ?? "")),
      );
  return out;
}

async function outputValidator(name: string): Promise<Validator> {
  const listed = (await toolsList()).tools.find((t) => t.name === name);
  return new Validator(listed.outputSchema, "2020-12", false);
}

describe("tools/list size", () => {
  it(`is under ${LIMIT_BYTES} bytes on the wire`, async () => {
    const { bytes, tools } = await toolsList();
    expect(tools).toHaveLength(13);
    expect(bytes).toBeLessThan(LIMIT_BYTES);
  });

  it("still describes every input field", async () => {
    const { tools } = await toolsList();
    const missing = tools.flatMap((t) =>
      fields(t.inputSchema, t.name)
        .filter((f) => typeof f.schema.description !== "string" || f.schema.description.length < 5)
        .map((f) => f.path),
    );
    expect(missing).toEqual([]);
    expect(JSON.stringify(tools.map((t) => t.inputSchema))).not.toContain("$ref");
  });

  it("declares an object outputSchema per tool: the resource's fields and the error response, without prose", async () => {
    const { tools } = await toolsList();
    for (const t of tools) {
      const output = t.outputSchema;
      expect(output?.type, t.name).toBe("object");
      expect(output.anyOf, t.name).toHaveLength(2);
      const [resource, error] = output.anyOf;
      expect(resource.required, t.name).toContain("ucp");
      expect(Object.keys(resource.properties).length, t.name).toBeGreaterThan(1);
      expect(error.required, t.name).toEqual(["ucp", "messages"]);
      expect(JSON.stringify(output), t.name).not.toContain('"description"');
    }
  });

  it("is served the same, byte for byte, on every call", async () => {
    const first = await toolsList();
    const second = await toolsList();
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    expect(second.bytes).toBe(first.bytes);
  });

  it("real answers meet their tool's outputSchema, and an answer missing a required field does not", async () => {
    const search = await callTool("search_catalog", { catalog: { query: "shoes" } });
    const searchSchema = await outputValidator("search_catalog");
    expect(searchSchema.validate(search.body.result.structuredContent).errors).toEqual([]);

    const created = await tool("create_checkout", {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
      },
    });
    const checkout = created.body.result.structuredContent;
    expect(checkout.ucp.status).toBe("success");
    const checkoutSchema = await outputValidator("create_checkout");
    expect(checkoutSchema.validate(checkout).errors).toEqual([]);

    const unknown = await tool("get_checkout", { id: "chk_unknown" });
    const error = unknown.body.result.structuredContent;
    expect(error.ucp.status).toBe("error");
    expect((await outputValidator("get_checkout")).validate(error).errors).toEqual([]);

    const { line_items: _dropped, ...withoutLines } = checkout;
    const { messages: _none, ...withoutMessages } = withoutLines;
    expect(checkoutSchema.validate(withoutMessages).valid).toBe(false);
  });
});
