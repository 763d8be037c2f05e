/**
 * Request bodies against the schemas the `ucp_request` annotations give each operation
 * (test/helpers/request-schema.ts): the derivation itself, then bodies the derived schema
 * refuses, each refused by the server too (400 invalid_request, never a 5xx or a 200), and
 * the two places where the server knowingly takes more than the derived schema allows.
 * Every other REST test holds its bodies to the same schemas (rest-client.ts).
 */
import { schemas } from "virtual:ucp-material";
import { describe, expect, it } from "vitest";
import { ADDRESS } from "../helpers/checkout";
import { RequestSchemas } from "../helpers/request-schema";
import { openapiPresent, requestErrors } from "./openapi";
import { rest } from "./rest-client";

type Json = Record<string, unknown>;
const LINE = { item: { id: "item_123" }, quantity: 1 };

describe("the derived request schemas", () => {
  it.runIf(openapiPresent)("follow the annotations per operation, shared files as create", () => {
    const derived = new RequestSchemas(schemas as Json[]);
    const byId = (id: string) =>
      derived.schemas.find((s) => s.$id === `https://ucp.dev/schemas/shopping/${id}`) as Json;
    const props = (s: Json) => Object.keys(s.properties as Json);

    const create = byId("checkout.create_req.json");
    expect(props(create)).not.toContain("id");
    expect(props(create)).not.toContain("status");
    expect(create.required).toEqual(["line_items"]);
    expect(byId("checkout.complete_req.json").required).toEqual(["payment"]);
    expect(props(byId("checkout.complete_req.json"))).not.toContain("line_items");
    expect(byId("cart.update_req.json").required).toEqual(["id", "line_items"]);
    // line_item.json: id omitted on create, optional on update; totals never sent.
    expect(props(byId("types/line_item.create_req.json"))).toEqual(["item", "quantity"]);
    expect(byId("types/line_item.update_req.json").required).toEqual(["item", "quantity"]);
    expect(byId("types/item.update_req.json").required).toEqual(["id"]);
    // The checkout's line items point at the same operation's variant.
    expect(JSON.stringify(byId("checkout.update_req.json"))).toContain("types/line_item.update_req.json");
    // fulfillment.json is ucp_shared_request: one variant, methods create-shaped.
    expect(derived.ref("https://ucp.dev/schemas/shopping/types/fulfillment.json", "update")).toBe(
      "https://ucp.dev/schemas/shopping/types/fulfillment_req.json",
    );
    expect(JSON.stringify(byId("types/fulfillment_req.json"))).toContain("fulfillment_method.create_req.json");
    const variants = derived.schemas.filter((s) => String(s.$id).endsWith("_req.json"));
    expect(variants.length).toBeGreaterThan(40);
    expect(JSON.stringify(variants)).not.toContain("ucp_request");
  });
});

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("bodies the derived request schema refuses", { timeout: 30_000 }, () => {
  it("are refused by the server too: 400 invalid_request", async () => {
    const checkout = await rest("POST", "/checkout-sessions", { body: { line_items: [LINE] } });
    expect(checkout.status, checkout.text).toBe(201);
    const cart = await rest("POST", "/carts", { body: { line_items: [LINE] } });
    expect(cart.status, cart.text).toBe(201);
    const chk = `/checkout-sessions/${checkout.body.id}`;
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/checkout-sessions", {}, "line_items missing"],
      ["POST", "/checkout-sessions", { line_items: "item_123" }, "line_items not an array"],
      ["POST", "/checkout-sessions", { line_items: [{ ...LINE, quantity: 0 }] }, "quantity below 1"],
      ["POST", "/checkout-sessions", { line_items: [{ item: {}, quantity: 1 }] }, "item.id missing"],
      ["POST", "/checkout-sessions", { line_items: [LINE], buyer: { email: 42 } }, "buyer.email a number"],
      [
        "POST",
        "/checkout-sessions",
        { line_items: [LINE], fulfillment: { methods: [{ type: "teleport", destinations: [ADDRESS] }] } },
        "unknown fulfillment type",
      ],
      ["PUT", chk, { buyer: { email: "jane@example.com" } }, "update without line_items"],
      ["POST", `${chk}/complete`, {}, "complete without payment"],
      [
        "POST",
        `${chk}/complete`,
        { payment: { instruments: [{ id: "instr_1", type: "card", credential: { type: "token", token: "t" } }] } },
        "instrument without handler_id",
      ],
      ["POST", "/carts", {}, "cart without line_items"],
      [
        "PUT",
        `/carts/${cart.body.id}`,
        { id: cart.body.id, line_items: [{ ...LINE, quantity: 1.5 }] },
        "fractional quantity",
      ],
    ];
    for (const [method, path, body, why] of cases) {
      const complete = path.endsWith("/complete");
      const reply = await rest(method, path, {
        body,
        invalidBody: true,
        ...(complete ? { sign: true, key: crypto.randomUUID() } : {}),
      });
      expect(reply.status, `${why}: ${reply.text}`).toBe(400);
      expect(reply.body.code, why).toBe("invalid_request");
    }
  });
});

describe("where the server takes more than the derived schema", { timeout: 30_000 }, () => {
  it("a cart update without the body id, a checkout from a cart without line_items (docs/rest-conformance.md)", async () => {
    const cart = await rest("POST", "/carts", { body: { line_items: [LINE] } });
    const update = { line_items: [{ ...LINE, quantity: 2 }] };
    if (openapiPresent) expect(requestErrors("PUT", "/carts/{id}", update)).not.toEqual([]);
    // Sent raw (a string) so the client's own check lets it through.
    const updated = await rest("PUT", `/carts/${cart.body.id}`, { body: JSON.stringify(update) });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.line_items[0].quantity).toBe(2);
    // A body id is taken only when it names the path's cart.
    const other = await rest("PUT", `/carts/${cart.body.id}`, { body: { ...update, id: "cart_other" } });
    expect(other.status, other.text).toBe(400);

    const fromCart = { cart_id: cart.body.id };
    if (openapiPresent) expect(requestErrors("POST", "/checkout-sessions", fromCart)).not.toEqual([]);
    const created = await rest("POST", "/checkout-sessions", { body: JSON.stringify(fromCart) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.line_items[0].quantity).toBe(2);
  });
});
