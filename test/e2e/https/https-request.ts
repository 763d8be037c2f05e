/**
 * One https request that trusts the test CA. Node 20's fetch cannot be given a CA of its own,
 * and NODE_EXTRA_CA_CERTS is read only when a process starts.
 */
import https from "node:https";

export interface HttpsAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export function httpsRequest(
  url: string,
  ca: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: init.method ?? "GET", headers: init.headers, ca, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
    req.on("error", reject);
    req.end(init.body);
  });
}
