/**
 * `npm start -- --var MERCHANT_ORIGIN:https://…` behind an https terminator (README "Behind
 * https"): discovery, product URLs, continue_urls and order permalinks all name the https
 * origin, and the buyer pages answer through it. The terminator is test/e2e/https/, with a
 * certificate made for this run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpsRequest } from "./https/https-request";
import { makeTestCertificate, opensslFound, type TestCertificate } from "./https/test-certificate";
import { startTlsTerminator, type TlsTerminator } from "./https/tls-terminator";
import { skipForMissing } from "./missing-tool";
import { freePort, type LocalServer, startServer } from "./server";

const PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

const skip = skipForMissing("the https origin suite", opensslFound() ? undefined : "no openssl on PATH");

let certificate: TestCertificate | undefined;
let terminator: TlsTerminator | undefined;
let server: LocalServer | undefined;
let apiKey = "";

function setup(): { origin: string; ca: string } {
  if (!terminator || !certificate) throw new Error("the https terminator did not start");
  return { origin: terminator.origin, ca: certificate.ca };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const { origin, ca } = setup();
  const res = await httpsRequest(`${origin}${path}`, ca, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status, res.body).toBeLessThan(300);
  return JSON.parse(res.body);
}

async function tool(name: string, args: Record<string, unknown>): Promise<Json> {
  const meta = { "ucp-agent": { profile: PROFILE }, "idempotency-key": crypto.randomUUID() };
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { meta, ...args } } };
  const answer = await post("/ucp/mcp", body, { authorization: `Bearer ${apiKey}` });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result.structuredContent;
}

describe.skipIf(skip)("npm start behind an https terminator", () => {
  beforeAll(async () => {
    certificate = makeTestCertificate();
    const port = await freePort();
    terminator = await startTlsTerminator({ target: `http://127.0.0.1:${port}`, ...certificate });
    server = await startServer({ port, vars: { MERCHANT_ORIGIN: terminator.origin } });
    const issued = await post(
      "/admin/api-keys",
      { profile: PROFILE, label: "https origin e2e" },
      { authorization: "Bearer dev-admin-token" },
    );
    apiKey = issued.api_key;
  });

  afterAll(async () => {
    await server?.stop();
    await terminator?.close();
    certificate?.remove();
  });

  it("says at start which origin it serves as which", () => {
    const { origin } = setup();
    expect(server?.log()).toContain(`Serving ${server?.baseUrl} as ${origin}`);
  });

  it("serves discovery naming the https origin only", async () => {
    const { origin, ca } = setup();
    const res = await httpsRequest(`${origin}/.well-known/ucp`, ca);
    expect(res.status).toBe(200);
    const profile = JSON.parse(res.body);
    const services: Json[] = profile.ucp.services["dev.ucp.shopping"];
    expect(services.find((s) => s.transport === "mcp")?.endpoint).toBe(`${origin}/ucp/mcp`);
    // The embedded binding (the checkout page) has no endpoint; every other one is on the https origin.
    for (const s of services.filter((s) => s.transport !== "embedded"))
      expect(s.endpoint.startsWith(`${origin}/`), s.endpoint).toBe(true);
    for (const h of Object.values<Json[]>(profile.ucp.payment_handlers).flat()) {
      expect(h.spec.startsWith(`${origin}/`), h.spec).toBe(true);
    }
    expect(res.body).not.toContain(server?.baseUrl);
    expect(res.body).not.toContain("http://localhost");
  });

  it("names the https origin in product URLs, continue_urls and the order permalink, and serves them", async () => {
    const { origin, ca } = setup();
    const under = (path: string) => new RegExp(`^${origin.replaceAll(".", "\\.")}/${path}/[A-Za-z0-9_-]+$`);
    const found = await tool("search_catalog", { catalog: { query: "shoe" } });
    const product = found.products[0];
    expect(product.url).toMatch(under("products"));
    const variant = product.variants.find((v: Json) => v.availability?.available) ?? product.variants[0];

    const cart = await tool("create_cart", { cart: { line_items: [{ item: { id: variant.id }, quantity: 1 }] } });
    expect(cart.continue_url).toMatch(under("cart"));

    const address = {
      street_address: "123 Main St",
      address_locality: "Springfield",
      address_region: "IL",
      postal_code: "62701",
      address_country: "US",
    };
    const checkout = await tool("create_checkout", {
      checkout: {
        line_items: [{ item: { id: variant.id }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: { methods: [{ type: "shipping", destinations: [address] }] },
      },
    });
    expect(checkout.status, JSON.stringify(checkout.messages)).toBe("ready_for_complete");
    expect(checkout.continue_url).toMatch(under("checkout"));

    const instrument = {
      id: "instr_1",
      handler_id: "mock_payment_handler",
      type: "card",
      selected: true,
      credential: { type: "token", token: "success_token" },
    };
    const done = await tool("complete_checkout", {
      id: checkout.id,
      checkout: { payment: { instruments: [instrument] } },
    });
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(done.order.permalink_url).toMatch(under("orders"));

    for (const page of [product.url, cart.continue_url, checkout.continue_url, done.order.permalink_url]) {
      const res = await httpsRequest(page, ca, { headers: { accept: "text/html" } });
      expect(res.status, `GET ${page}`).toBe(200);
    }
  });
});
