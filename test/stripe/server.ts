/**
 * The stand-in over plain HTTP for e2e and browser tests: point a store's STRIPE_API_BASE (or
 * the SDK's host/port/protocol) at `url`, and STRIPE_JS_URL at `${url}/v3` (stripe-js.ts: a
 * minimal Stripe.js for the checkout page's card form). Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createStripeStandIn, type StandInOptions, type StripeStandIn } from "./handler.ts";
import { AnswerHolds, type Hold, type HoldMatch } from "./hold.ts";
import { stripeJsRequest } from "./stripe-js.ts";

export interface RunningStandIn {
  /** e.g. http://127.0.0.1:9700 (no trailing slash). */
  readonly url: string;
  readonly standIn: StripeStandIn;
  /** Holds the answers to matching requests until released (hold.ts: crash tests). */
  hold(match: HoldMatch): Hold;
  stop(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

export async function startStripeStandIn(options: StandInOptions & { port?: number } = {}): Promise<RunningStandIn> {
  const standIn = createStripeStandIn(options);
  let origin = "";
  const holds = new AnswerHolds();
  const server = createServer((req, res) => {
    toRequest(req, origin)
      // Stripe.js's stand-in (/v3) and its publishable-key calls, then the API; CORS for the page.
      .then((request) =>
        holds.pass(
          request,
          () => stripeJsRequest(request, standIn, options.apiKey),
          () => req.socket.destroyed,
        ),
      )
      .then(async (response) => {
        // A held answer whose caller is gone (killed) has no one to go to.
        if (!response || req.socket.destroyed) return void res.destroy();
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((e: unknown) => {
        if (res.headersSent || req.socket.destroyed) return void res.destroy();
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "api_error", message: String(e) } }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    standIn,
    hold: (match) => holds.engage(match),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
