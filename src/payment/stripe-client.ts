/**
 * The official Stripe SDK, set up for Workers: its fetch HTTP client (no Node http), pointed
 * at STRIPE_API_BASE through the SDK's own host/port/protocol options, so a stand-in can take
 * Stripe's place (tests, local runs) without a line of the processor changing.
 */
import Stripe from "stripe";
import type { StripeSettings } from "../config/stripe";

/** One client per settings object (per isolate and config), like merchantConfig's cache. */
const clients = new WeakMap<StripeSettings, Stripe>();

export function stripeClient(settings: StripeSettings): Stripe {
  const known = clients.get(settings);
  if (known) return known;
  const client = new Stripe(settings.secretKey, { ...apiOrigin(settings.apiBase), ...CLIENT_OPTIONS });
  clients.set(settings, client);
  return client;
}

const CLIENT_OPTIONS = {
  // The global fetch looked up per request (not captured at load): tests may stand in for it.
  httpClient: Stripe.createFetchHttpClient((input, init) => fetch(input, init)),
  // One network retry, keyed: the SDK reuses our Idempotency-Key, so it never charges twice.
  maxNetworkRetries: 1,
  // Below the Worker's wall-clock budget for a request: a completion answers rather than hangs.
  timeout: 20_000,
  // No usage telemetry headers about earlier requests.
  telemetry: false,
} as const;

/** `https://stripe.test` → host stripe.test, port 443, https (the SDK's options, not a base URL). */
export function apiOrigin(apiBase: string): { host: string; port: number; protocol: "https" | "http" } {
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "https" ? 443 : 80, protocol };
}
