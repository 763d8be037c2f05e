/**
 * The order confirmation email end to end: the real local server (`npm start`) configured
 * for Mailgun with its API base pointed at a local receiver that speaks Mailgun's
 * `POST /v3/{domain}/messages.mime` (basic auth `api:{key}`, multipart `to` and `message`),
 * an order completed through the official MCP SDK client, and the receiver, which refuses
 * the first attempt with 503, accepting exactly one message: the order's lines, total and
 * status page link, in a MIME message that keeps its Message-ID across the retry.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMime } from "../node/email-mime";
import { type LocalServer, startServer } from "./server";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

const PROFILE = "https://platform.example/profiles/shopping-agent.json";
const DOMAIN = "mg.demo-outfitters.example";
const API_KEY = "key-e2e-not-secret";
const BUYER = "sam.buyer@example.com";
// The receiver refuses this one for good, as Mailgun does a recipient it will not mail.
const REFUSED = "refused@example.com";

interface Upload {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  readonly contentType: string;
  readonly fields: Record<string, string>;
  readonly message: string;
}

let shop: LocalServer | undefined;
let receiver: Server | undefined;
const uploads: Upload[] = [];
let failuresLeft = 1;
let apiBase = "";

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Mailgun's messages.mime as documented: 401 without the key, 400 without the fields, else queued. */
async function mailgun(req: IncomingMessage): Promise<{ status: number; body: Json; upload?: Omit<Upload, "status"> }> {
  const contentType = req.headers["content-type"] ?? "";
  const raw = await readBody(req);
  const upload = {
    method: req.method ?? "",
    path: req.url ?? "",
    authorization: req.headers.authorization ?? "",
    contentType,
    fields: {} as Record<string, string>,
    message: "",
  };
  if (upload.authorization !== `Basic ${Buffer.from(`api:${API_KEY}`).toString("base64")}`)
    return { status: 401, body: { message: "Invalid private key" }, upload };
  if (upload.method !== "POST" || upload.path !== `/v3/${DOMAIN}/messages.mime`)
    return { status: 404, body: { message: "Not Found" }, upload };
  const form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType } })
    .formData()
    .catch(() => undefined);
  const file = form?.get("message");
  for (const [name, value] of form?.entries() ?? []) if (typeof value === "string") upload.fields[name] = value;
  if (!form || !upload.fields.to || !(file instanceof Blob))
    return { status: 400, body: { message: "to and message are required" }, upload };
  upload.message = await file.text();
  if (upload.fields.to === REFUSED) return { status: 400, body: { message: "'to' parameter is not valid" }, upload };
  if (failuresLeft-- > 0) return { status: 503, body: { message: "Service Unavailable" }, upload };
  return { status: 200, body: { id: `<${crypto.randomUUID()}@${DOMAIN}>`, message: "Queued. Thank you." }, upload };
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const answer = await mailgun(req);
    if (answer.upload) uploads.push({ ...answer.upload, status: answer.status });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
  apiBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  shop = await startServer({
    vars: {
      MAILGUN_API_KEY: API_KEY,
      MAILGUN_DOMAIN: DOMAIN,
      EMAIL_FROM: `Demo Outfitters <orders@${DOMAIN}>`,
      MAILGUN_API_BASE: apiBase,
      EMAIL_RETRY_BASE_SECONDS: "1",
    },
  });
});

afterAll(async () => {
  await shop?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; uploads: ${uploads.length}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Completes a checkout for two of item_123, shipped to Austin, as an API-key platform over MCP. */
async function placeOrder(buyer: string, base = shop?.baseUrl ?? ""): Promise<Json> {
  const keyRes = await fetch(`${base}/admin/api-keys`, {
    method: "POST",
    headers: { authorization: "Bearer dev-admin-token", "content-type": "application/json" },
    body: JSON.stringify({ profile: PROFILE, label: "email e2e" }),
  });
  expect(keyRes.status).toBe(201);
  const apiKey = ((await keyRes.json()) as { api_key: string }).api_key;
  const client = new Client({ name: "email-e2e", version: "0.0.0" });
  const auth = { headers: { authorization: `Bearer ${apiKey}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/ucp/mcp`), { requestInit: auth }));
  const call = async (name: string, args: Record<string, unknown>) => {
    const meta = { "ucp-agent": { profile: PROFILE }, "idempotency-key": crypto.randomUUID() };
    const result = await client.callTool({ name, arguments: { meta, ...args } });
    expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
    return result.structuredContent as Json;
  };

  const checkout = await call("create_checkout", {
    checkout: {
      line_items: [{ item: { id: "item_123" }, quantity: 2 }],
      buyer: { email: buyer },
      fulfillment: {
        methods: [
          {
            type: "shipping",
            destinations: [
              {
                first_name: "Sam",
                last_name: "Buyer",
                street_address: "1 Main St",
                address_locality: "Austin",
                address_region: "TX",
                postal_code: "78701",
                address_country: "US",
              },
            ],
          },
        ],
      },
    },
  });
  expect(checkout.status).toBe("ready_for_complete");
  const payment = {
    instruments: [
      {
        id: "instr_1",
        handler_id: "mock_payment_handler",
        type: "card",
        selected: true,
        credential: { type: "token", token: "success_token" },
      },
    ],
  };
  const done = await call("complete_checkout", { id: checkout.id, checkout: { payment } });
  await client.close();
  expect(done.status).toBe("completed");
  return done;
}

describe("order confirmation email through Mailgun's API", () => {
  it("says at start that email goes through Mailgun", () => {
    expect(shop?.log()).toContain(`email: confirmations sent through Mailgun (http://127.0.0.1:`);
    expect(shop?.log()).not.toContain("email: not configured");
  });

  it("a completed order's confirmation reaches the receiver once, after one 503, with items, total and link", async () => {
    const done = await placeOrder(BUYER);
    const orderId: string = done.order.id;
    const statusUrl: string = done.order.permalink_url;
    expect(statusUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    const accepted = await waitFor("an accepted upload", () => uploads.find((u) => u.status === 200));
    // Nothing more arrives once Mailgun has it (the outbox row is marked sent).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(uploads.map((u) => u.status)).toEqual([503, 200]);

    for (const upload of uploads) {
      expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
      expect(upload.fields.to).toBe(BUYER);
    }
    const [first, second] = uploads.map((u) => parseMime(u.message));
    // The retry is the same message: a receiver (or a mail client) can tell it is one.
    expect(second?.headers["message-id"]).toBe(`<order_confirmation.${orderId}@${DOMAIN}>`);
    expect(first?.headers["message-id"]).toBe(second?.headers["message-id"]);

    const mail = parseMime(accepted.message);
    expect(mail.headers.to).toBe(`<${BUYER}>`);
    expect(mail.headers.from).toBe(`Demo Outfitters <orders@${DOMAIN}>`);
    // A person reads the short order number (its label); the id stays in the Message-ID.
    expect(mail.headers.subject).toBe(`Demo Outfitters: order ${done.order.label} confirmed`);
    expect(done.order.label).toMatch(/^#\d+$/);
    const text = mail.parts.find((p) => p.headers["content-type"]?.startsWith("text/plain"))?.body ?? "";
    const html = mail.parts.find((p) => p.headers["content-type"]?.startsWith("text/html"))?.body ?? "";
    const money = (minor: number) =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(minor / 100);
    const total = done.totals.find((t: Json) => t.type === "total").amount as number;
    const line = done.line_items[0];
    expect(text).toContain(`- 2 × ${line.item.title}: ${money(line.item.price * 2)}`);
    expect(text).toContain(`Total: ${money(total)}`);
    expect(text).toContain(`Order status and tracking: ${statusUrl}`);
    expect(text).toContain("1 Main St");
    expect(html).toContain(money(total));
    expect(html).toContain(`href="${statusUrl.replace(/&/g, "&amp;")}"`);
  });

  it("a message Mailgun refuses (400) is given up at once, not retried", async () => {
    const done = await placeOrder(REFUSED);
    expect(done.status).toBe("completed");
    await waitFor("the refused upload", () => uploads.find((u) => u.fields.to === REFUSED));
    // Retries start after 1 s here: three seconds would show two more.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(uploads.filter((u) => u.fields.to === REFUSED).map((u) => u.status)).toEqual([400]);
    expect(shop?.log()).toMatch(/email order_confirmation to=r\*\*\*@example\.com: Mailgun answered 400, not retried/);
  });
});

describe("a store with half its email settings (no key)", () => {
  let half: LocalServer | undefined;
  beforeAll(async () => {
    half = await startServer({
      vars: { MAILGUN_DOMAIN: DOMAIN, EMAIL_FROM: `Demo Outfitters <orders@${DOMAIN}>`, MAILGUN_API_BASE: apiBase },
    });
  });
  afterAll(async () => {
    await half?.stop();
  });

  it("says so at start, still takes orders, and holds the confirmation unsent", async () => {
    expect(half?.log()).toMatch(
      /email: misconfigured — confirmations are held and retried, not sent: MAILGUN_API_KEY: not set/,
    );
    const done = await placeOrder("held@example.com", half?.baseUrl);
    expect(done.status).toBe("completed");
    await waitFor(
      "the held confirmation's log line",
      () =>
        half
          ?.log()
          .match(
            /email order_confirmation to=h\*\*\*@example\.com: not sent, email is misconfigured: MAILGUN_API_KEY/,
          )?.[0],
    );
    expect(uploads.filter((u) => u.fields.to === "held@example.com")).toEqual([]);
  });
});
