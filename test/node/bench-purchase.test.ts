/**
 * The purchase benchmark of issue 29 (bench/purchase/) cannot silently rot: its smoke mode
 * runs the real journey for a few seconds through `npm start` (no reference) and must print
 * the row with every journey's order webhook received; its table, receiver and the
 * reference's one-line fix are checked on their own.
 */
import { describe, expect, it } from "vitest";
import { announcedOrder, ourProfile, referenceProfile, startPlatform } from "../../bench/purchase/platform";
import { patchReference } from "../../bench/purchase/reference";
import { HEADER, markdownTable, type RoundResult } from "../../bench/purchase/report";
import { benchPurchase, optionsFromEnv } from "../../bench/purchase/run";

const round = (over: Partial<RoundResult>): RoundResult => ({
  server: "bundle",
  state: "tmpfs",
  concurrency: 32,
  seconds: 20,
  journeys: 1000,
  delivered: 1000,
  failedRequests: 0,
  cpuMsPerJourney: 12.5,
  p50: 300,
  p99: 480,
  rssBytes: 1.2e9,
  loadAverage: 2.1,
  ...over,
});

describe("purchase bench table", () => {
  it("counts only journeys whose webhook arrived, with every round's rate and the load average", () => {
    const table = markdownTable([
      round({ delivered: 900 }),
      round({ journeys: 1200, delivered: 1200, loadAverage: 2.9 }),
    ]);
    const lines = table.split("\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines[2]).toBe(
      "| this Worker, bundle on Miniflare | tmpfs | 32 | 52.5 (45.0, 60.0) | 12.5 | 300 | 480 | 0 | 2100 / 2200 | 1.2 GB | 2.1–2.9 |",
    );
  });

  it("keeps a missing reference as a row that says how to get it", () => {
    const table = markdownTable([round({})], ["Node reference: UCP_SAMPLES_DIR is not set (git clone …)"]);
    expect(table.split("\n").at(-1)).toContain("UCP_SAMPLES_DIR is not set");
    expect(table.split("\n").at(-1)).toContain("missing");
  });
});

describe("the bench's settings", () => {
  const withEnv = (vars: Record<string, string>, read: () => unknown) => {
    const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      return read();
    } finally {
      for (const [k, v] of Object.entries(before)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  };

  it("names a state, server or concurrency it does not know before anything starts", () => {
    // A folder where a state kind belongs used to reach the first round as "path undefined".
    expect(() => withEnv({ BENCH29_STATES: "/dev/shm" }, optionsFromEnv)).toThrow(
      "BENCH29_STATES: /dev/shm is not one of tmpfs, disk",
    );
    expect(() => withEnv({ BENCH29_SERVERS: "bundle,wrangler" }, optionsFromEnv)).toThrow(
      "BENCH29_SERVERS: wrangler is not one of reference, bundle, npm-start",
    );
    expect(() => withEnv({ BENCH29_CONCURRENCY: "32,lots" }, optionsFromEnv)).toThrow(
      "BENCH29_CONCURRENCY: lots is not a positive whole number",
    );
  });

  it("takes the kinds it knows, in the order given", () => {
    const options = withEnv(
      { BENCH29_STATES: "disk,tmpfs", BENCH29_SERVERS: "npm-start" },
      optionsFromEnv,
    ) as ReturnType<typeof optionsFromEnv>;
    expect(options.states).toEqual(["disk", "tmpfs"]);
    expect(options.servers).toEqual(["npm-start"]);
  });
});

describe("the platform's receiver", () => {
  it("serves each client's profile subscribed to order webhooks and remembers announced orders", async () => {
    const platform = await startPlatform();
    try {
      const profile = (await (await fetch(platform.profileUrl(3))).json()) as ReturnType<typeof ourProfile>;
      const hook = `${platform.origin}/p/3/webhooks`;
      expect(profile).toEqual(ourProfile(hook));
      const res = await fetch(hook, { method: "POST", body: JSON.stringify({ id: "ord_1", ucp: {} }) });
      expect(res.status).toBe(200);
      await fetch(`${platform.origin}/ref/webhooks`, {
        method: "POST",
        body: JSON.stringify({ order: { id: "ord_2" } }),
      });
      await fetch(hook, { method: "POST", body: "not json" });
      expect([...platform.delivered].sort()).toEqual(["ord_1", "ord_2"]);
      expect(platform.unreadable()).toBe(1);
    } finally {
      await platform.close();
    }
  });

  it("reads both servers' webhook bodies and gives the reference a profile in its shape", () => {
    expect(announcedOrder('{"id":"ord_a","checkout_id":"c"}')).toBe("ord_a");
    expect(announcedOrder('{"event_type":"order_placed","order":{"id":"ord_b"}}')).toBe("ord_b");
    expect(announcedOrder("{}")).toBeUndefined();
    const uri = referenceProfile("http://127.0.0.1:1/ref/webhooks");
    const doc = JSON.parse(Buffer.from(uri.split(",")[1] as string, "base64").toString("utf8"));
    expect(doc.ucp.capabilities[0]).toEqual({
      name: "dev.ucp.shopping.order",
      config: { webhook_url: "http://127.0.0.1:1/ref/webhooks" },
    });
  });
});

describe("the reference's logger fix", () => {
  const block = `// Setup logging for each request
app.use(requestId());
app.use(async (c: Context, next: () => Promise<void>) => {
  c.env.incoming.id = c.var.requestId;

  await new Promise<void>((resolve) =>
    pinoHttp({
      quietReqLogger: true,
      transport: {
        target: 'pino-http-print',
        options: {
          destination: 1,
          all: true,
          translateTime: true,
        },
      },
    })(c.env.incoming, c.env.outgoing, () => resolve()),
  );
});
serve({ fetch: app.fetch, port: 3000, });`;

  it("builds the logger once, outside the handler, and listens on PORT", () => {
    const fixed = patchReference(block);
    expect(fixed.indexOf("const httpLogger = pinoHttp({")).toBeLessThan(fixed.indexOf("app.use(async"));
    expect(fixed).toContain("httpLogger(c.env.incoming, c.env.outgoing, () => resolve())");
    expect(fixed.match(/pinoHttp\(/g)).toHaveLength(1);
    expect(fixed).toContain("port: Number(process.env.PORT ?? 3000),");
  });

  it("refuses a sample whose logger moved (the row is then reported missing, not measured unfixed)", () => {
    expect(() => patchReference(block.replace("quietReqLogger: true,", "quietReqLogger: false,"))).toThrow(
      /logger to hoist was not found/,
    );
  });
});

describe("smoke run through npm start", () => {
  it("answers every request and receives every journey's order webhook", { timeout: 120_000 }, async () => {
    const report = await benchPurchase(
      {
        seconds: 3,
        warmupSeconds: 0,
        rounds: 1,
        concurrency: [2],
        servers: ["npm-start"],
        states: ["tmpfs"],
        webhookWaitSeconds: 15,
      },
      () => {},
    );
    const [result] = report.results;
    expect(result?.firstFailure).toBeUndefined();
    expect(result?.failedRequests).toBe(0);
    expect(result?.journeys).toBeGreaterThan(0);
    expect(result?.delivered).toBe(result?.journeys);
    expect(result?.cpuMsPerJourney).toBeGreaterThan(0);
    expect(report.table).toContain("| this Worker, `npm start` | tmpfs | 2 |");
  });
});
