/**
 * The platform the purchase journeys buy for: a local HTTP server that serves each client's
 * platform profile (subscribed to order webhooks) and receives the webhooks, remembering
 * which orders they announced. A journey counts as delivered only when its order's webhook
 * arrived here.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const V = "2026-04-08";
const CAPABILITIES = ["catalog.search", "catalog.lookup", "cart", "checkout", "fulfillment", "discount"];

export interface Platform {
  readonly origin: string;
  /** Client n's profile URL (its own rate-limit key and API key, as a separate platform would have). */
  profileUrl(client: number): string;
  /** The reference's profile: a data: URI in its own shape (it fetches http profiles on every create and update). */
  readonly referenceProfile: string;
  /** Order ids whose webhook arrived. */
  readonly delivered: ReadonlySet<string>;
  /** Webhook posts that named no order. */
  readonly unreadable: () => number;
  close(): Promise<void>;
}

/** Our store's form: capabilities keyed by name, as the platform profile schema has them. */
export function ourProfile(webhookUrl: string): unknown {
  const docs = (c: string) => ({
    version: V,
    spec: `https://ucp.dev/${V}/specification/${c}`,
    schema: `https://ucp.dev/${V}/schemas/shopping/${c}.json`,
  });
  return {
    ucp: {
      version: V,
      services: {},
      capabilities: {
        ...Object.fromEntries(CAPABILITIES.map((c) => [`dev.ucp.shopping.${c}`, [docs(c)]])),
        "dev.ucp.shopping.order": [{ ...docs("order"), config: { webhook_url: webhookUrl } }],
      },
      payment_handlers: {},
    },
  };
}

/** The reference reads `ucp.capabilities[]` entries named `dev.ucp.shopping.order` (samples rest/nodejs checkout.ts). */
export function referenceProfile(webhookUrl: string): string {
  const doc = { ucp: { capabilities: [{ name: "dev.ucp.shopping.order", config: { webhook_url: webhookUrl } }] } };
  return `data:application/json;base64,${Buffer.from(JSON.stringify(doc)).toString("base64")}`;
}

/** The order id a webhook body names: ours is the order itself, the reference's wraps it in `order`. */
export function announcedOrder(body: string): string | undefined {
  try {
    const doc = JSON.parse(body) as { id?: unknown; order?: { id?: unknown } };
    const id = doc.order?.id ?? doc.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

export async function startPlatform(): Promise<Platform> {
  const delivered = new Set<string>();
  let unreadable = 0;
  let origin = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "";
      const profile = /^\/p\/(\d+)\/profile\.json$/.exec(url);
      if (req.method === "GET" && profile) {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=3600" });
        res.end(JSON.stringify(ourProfile(`${origin}/p/${profile[1]}/webhooks`)));
        return;
      }
      if (req.method === "POST" && url.endsWith("/webhooks")) {
        const id = announcedOrder(Buffer.concat(chunks).toString("utf8"));
        if (id) delivered.add(id);
        else unreadable++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ucp: { version: V, status: "success" } }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    profileUrl: (client) => `${origin}/p/${client}/profile.json`,
    referenceProfile: referenceProfile(`${origin}/ref/webhooks`),
    delivered,
    unreadable: () => unreadable,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
