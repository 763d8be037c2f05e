/**
 * What stands in front of a store served over https: an https server on 127.0.0.1 that
 * forwards every request to the local http server unchanged (Host included, bodies streamed
 * both ways) and adds X-Forwarded-Proto. It keeps one line per request for failure messages.
 */
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

export interface TlsTerminator {
  /** e.g. https://localhost:9443 */
  readonly origin: string;
  /** "GET /.well-known/ucp → 200", one per forwarded request, oldest first. */
  requests(): readonly string[];
  close(): Promise<void>;
}

export interface TlsTerminatorOptions {
  /** Where requests go, e.g. http://127.0.0.1:8787 */
  readonly target: string;
  readonly cert: string;
  readonly key: string;
  readonly port?: number;
}

// Per connection, not end to end (RFC 9110 §7.6.1): Node frames each side's body itself.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export async function startTlsTerminator(options: TlsTerminatorOptions): Promise<TlsTerminator> {
  const target = new URL(options.target);
  const log: string[] = [];
  const server = https.createServer({ cert: options.cert, key: options.key }, (req, res) => {
    const line = `${req.method} ${req.url}`;
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...endToEnd(req.headers), "x-forwarded-proto": "https" },
      },
      (answer) => {
        log.push(`${line} → ${answer.statusCode}`);
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on("error", (e) => {
      log.push(`${line} → upstream error: ${e.message}`);
      if (res.headersSent) res.destroy(e);
      else res.writeHead(502, { "content-type": "text/plain" }).end(`tls terminator: ${e.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://localhost:${port}`,
    requests: () => [...log],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
