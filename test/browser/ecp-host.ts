/**
 * An Embedded Checkout host for the browser tests: a small Node HTTP server on another origin
 * (http://localhost:<free port>, while the store is http://127.0.0.1:<port>) that serves the
 * platform's profile and a host page embedding a continue_url in a sandboxed iframe. The page
 * answers ec.ready (upgrading the channel to a MessagePort when asked), the delegated
 * requests (a payment credential for the first handler the checkout offers, an address, a
 * window.open), and records every message in `window.__ec` for the test to read.
 */
import { createServer, type Server } from "node:http";
import { freePort } from "../e2e/server";

export interface EcpHost {
  readonly origin: string;
  readonly profileUrl: string;
  /** The host page that embeds `src` (continue_url with its ec_* parameters). */
  pageUrl(src: string, options?: { upgrade?: boolean }): string;
  close(): Promise<void>;
}

const V2 = "2026-08-25";
const CAPABILITIES = ["catalog.search", "catalog.lookup", "cart", "checkout", "order", "fulfillment", "discount"];

function profile() {
  const entry = (name: string) => ({
    version: V2,
    spec: `https://ucp.dev/${V2}/specification/shopping/${name.replace(".", "/")}`,
    schema: `https://ucp.dev/${V2}/schemas/shopping/${name.replace(".", "_")}.json`,
  });
  return {
    ucp: {
      version: V2,
      services: {},
      capabilities: Object.fromEntries(CAPABILITIES.map((n) => [`dev.ucp.shopping.${n}`, [entry(n)]])),
      payment_handlers: {},
    },
  };
}

/** The host's script: data only through JSON.stringify, never spliced as markup. */
function hostPage(src: string, store: string, upgrade: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Agent host</title>
<style>body{font:16px system-ui;margin:0;background:#eef}header{padding:.5rem 1rem}iframe{display:block;width:100%;height:1700px;border:0;background:#fff}</style></head>
<body><header><h1>Agent host</h1></header><main>
<iframe id="checkout" title="Checkout" sandbox="allow-scripts allow-forms allow-same-origin allow-popups" src=${JSON.stringify(src)}></iframe>
</main>
<script>
window.__ec = [];
var STORE = ${JSON.stringify(store)};
var UPGRADE = ${JSON.stringify(upgrade)};
var frame = document.getElementById("checkout");
var channel = null;
var version = new URL(frame.src).searchParams.get("ec_version");
function ok(extra) { var r = { ucp: { version: version, status: "success" } }; for (var k in extra) r[k] = extra[k]; return r; }
// Each document of the frame handshakes anew: answer on the channel the request came on.
var via = "window";
function reply(message, transfer) {
  if (via === "port" && !transfer) channel.postMessage(message);
  else frame.contentWindow.postMessage(message, STORE, transfer || []);
}
function firstHandler(checkout) {
  var handlers = (checkout && checkout.ucp && checkout.ucp.payment_handlers) || {};
  for (var name in handlers) if (handlers[name][0]) return handlers[name][0].id;
  return undefined;
}
function handle(message, from) {
  via = from;
  window.__ec.push({ via: from, message: message });
  if (message.id === undefined) return;
  var p = message.params || {};
  if (message.method === "ec.ready") {
    if (UPGRADE && from === "window") {
      var mc = new MessageChannel();
      channel = mc.port1;
      channel.onmessage = function (e) { handle(e.data, "port"); };
      reply({ jsonrpc: "2.0", id: message.id, result: ok({ upgrade: { port: mc.port2 } }) }, [mc.port2]);
      return;
    }
    reply({ jsonrpc: "2.0", id: message.id, result: ok({}) });
  } else if (message.method === "ec.payment.credential_request") {
    reply({ jsonrpc: "2.0", id: message.id, result: ok({ checkout: { payment: { instruments: [{
      id: "host_instr_1", handler_id: firstHandler(p.checkout), type: "card", selected: true,
      display: { brand: "visa", last_digits: "4242", description: "Visa •••• 4242" },
      credential: { type: "token", token: "success_token" } }] } } }) });
  } else if (message.method === "ec.fulfillment.address_change_request") {
    reply({ jsonrpc: "2.0", id: message.id, result: ok({ checkout: { fulfillment: { methods: [{
      id: "host_method", type: "shipping", selected_destination_id: "host_addr",
      destinations: [{ id: "host_addr", first_name: "Robin", last_name: "Host", street_address: "500 Host Ave",
        address_locality: "Portland", address_region: "OR", postal_code: "97201", address_country: "US" }] }] } } }) });
  } else if (message.method === "ec.window.open_request") {
    reply({ jsonrpc: "2.0", id: message.id, result: ok({}) });
  } else {
    reply({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found." } });
  }
}
window.addEventListener("message", function (e) {
  if (e.origin !== STORE || e.source !== frame.contentWindow) return;
  handle(e.data, "window");
});
</script></body></html>`;
}

export async function startEcpHost(storeOrigin: string): Promise<EcpHost> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname === "/profile.json") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=300" });
      res.end(JSON.stringify(profile()));
    } else if (url.pathname === "/host.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(hostPage(url.searchParams.get("src") ?? "", storeOrigin, url.searchParams.get("upgrade") === "1"));
    } else {
      res.writeHead(404).end();
    }
  });
  // Every loopback address: Chromium and workerd may each resolve localhost to ::1 or 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    origin,
    profileUrl: `${origin}/profile.json`,
    pageUrl: (src, options = {}) =>
      `${origin}/host.html?src=${encodeURIComponent(src)}${options.upgrade ? "&upgrade=1" : ""}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
