/** The test handler's spec page and JSON Schema, at the URLs checkouts and discovery name. */
import { schemas } from "virtual:ucp-material";
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { type Json, pay, readyCheckout } from "../helpers/checkout";
import { officialSchemasPresent, validateOfficial } from "../helpers/official-schema";
import { getPage, ORIGIN } from "../helpers/pages";

// Page budgets are per client address: this file is its own client, as on the internet.
const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

const CARD_INSTRUMENT = "https://ucp.dev/schemas/shopping/types/card_payment_instrument.json";

/** The handler entry a checkout advertises for mock_payment_handler. */
async function advertised(): Promise<Json> {
  const checkout = await readyCheckout([{ id: "var_abc123_blue_10", quantity: 1 }]);
  const entries = Object.values(checkout.ucp.payment_handlers as Record<string, Json[]>).flat();
  const entry = entries.find((e) => e.id === "mock_payment_handler");
  expect(entry).toBeDefined();
  return entry;
}

async function schemaValidator(): Promise<Validator> {
  const entry = await advertised();
  const res = await getPage(new URL(entry.schema).pathname, { ip: IP });
  const document = JSON.parse(res.html);
  expect(document.$id).toBe(entry.schema);
  const validator = new Validator(document, "2020-12", false);
  for (const schema of schemas) validator.addSchema(schema as never);
  return validator;
}

describe("test payment handler documents", () => {
  it("the spec URL a checkout advertises is an HTML page naming the handler, instrument, credential, tokens and test cards", async () => {
    const entry = await advertised();
    expect(entry.spec).toBe(`${ORIGIN}/ucp/payment/test`);
    const { res, html } = await getPage(new URL(entry.spec).pathname, { ip: IP });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html).toContain("<h1>Test payment handler</h1>");
    expect(html).toContain("This store is in test mode");
    expect(html).toContain("<code>mock_payment_handler</code>");
    expect(html).toContain("<code>com.example.shop.test_payment</code>");
    expect(html).toContain("<td><code>card</code></td>");
    expect(html).toContain(`<code>{"type": "token", "token": "…"}</code>`);
    for (const [card, token] of [
      ["4242 4242 4242 4242", "success_token"],
      ["4000 0000 0000 0002", "fail_token"],
      ["4000 0027 6000 3184", "requires_3ds_token"],
    ]) {
      expect(html).toContain(`<tr><td><code>${card}</code></td><td><code>${token}</code></td>`);
    }
    expect(html).toContain("requires_escalation");
    expect(html).toContain('<a href="/ucp/payment/test/schema.json">');
  });

  it("the schema URL is a draft 2020-12 JSON Schema served as application/schema+json", async () => {
    const entry = await advertised();
    const res = await getPage(new URL(entry.schema).pathname, { ip: IP });
    expect(res.res.status).toBe(200);
    expect(res.res.headers.get("content-type")).toBe("application/schema+json");
    const document = JSON.parse(res.html);
    expect(document.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(JSON.stringify(document)).toContain(CARD_INSTRUMENT);
  });

  it.skipIf(!officialSchemasPresent)(
    "accepts the instruments agents send (each also a valid UCP card instrument) and refuses others",
    async () => {
      const validator = await schemaValidator();
      const valid = ["success_token", "fail_token", "requires_3ds_token"].map(
        (token) => pay(token).payment.instruments[0],
      );
      for (const instrument of valid) {
        expect(validator.validate(instrument).errors).toEqual([]);
        expect(validateOfficial(CARD_INSTRUMENT, instrument).errors).toEqual([]);
      }
      const base = valid[0] as Json;
      const invalid = [
        { ...base, credential: { type: "token" } },
        { ...base, credential: { type: "card_number", number: "4242424242424242" } },
        { ...base, type: "wallet" },
        { ...base, handler_id: "another_handler" },
        (({ credential: _c, ...rest }) => rest)(base),
        { ...base, credential: { type: "token", token: "" } },
      ];
      for (const instrument of invalid) {
        expect(validator.validate(instrument).valid, JSON.stringify(instrument)).toBe(false);
      }
    },
  );
});
