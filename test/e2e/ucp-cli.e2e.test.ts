/**
 * Interop with Shopify's reference client, @shopify/ucp-cli 0.9.0 (on Node 22, installed by
 * test/e2e/ucp-cli/install.ts): it buys from the real local store (`npm start`) behind an
 * https terminator, as an agent would: discover, search, get product, cart, checkout from the
 * cart, buyer and shipping address, a shipping option, complete with the test payment
 * handler, get order; and once more when the bank asks for verification (escalation hook).
 *
 * The CLI presents Shopify's published agent profiles, served byte for byte from a local
 * https host (test/e2e/ucp-cli/agent-profiles.ts) that the store may reach (OUTBOUND_ALLOW)
 * and must reach (PROFILE_FALLBACK=strict). Two purchases: at the version the CLI negotiates
 * from discovery (the newest both sides speak, which must be what discovery calls current),
 * and with a profile pinned to 2026-04-08. Without the npm registry or openssl the suite is
 * skipped with one line, and fails under CI.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpsRequest } from "./https/https-request";
import { makeTestCertificate, opensslFound, type TestCertificate } from "./https/test-certificate";
import { startTlsTerminator, type TlsTerminator } from "./https/tls-terminator";
import { skipForMissing } from "./missing-tool";
import { freePort, type LocalServer, startServer } from "./server";
import {
  type AgentProfileHost,
  type PublishedAgentProfile,
  publishedAgentProfiles,
  startAgentProfileHost,
} from "./ucp-cli/agent-profiles";
import { CLI_VERSION, installCli } from "./ucp-cli/install";
import { type CliSetup, type Json, ucp } from "./ucp-cli/run-cli";

const PINNED = "2026-04-08";
const STEP_MS = 180_000;
const TOOLS = [
  "search_catalog",
  "get_product",
  "create_cart",
  "create_checkout",
  "update_checkout",
  "complete_checkout",
  "get_order",
];

const install = opensslFound() ? installCli() : undefined;
const skip = skipForMissing(
  `the @shopify/ucp-cli ${CLI_VERSION} interop suite`,
  install === undefined ? "no openssl on PATH" : install.ok ? undefined : install.why,
);

let certificate: TestCertificate | undefined;
let profileHost: AgentProfileHost | undefined;
let terminator: TlsTerminator | undefined;
let server: LocalServer | undefined;
let home = "";
let profiles: PublishedAgentProfile[] = [];
let negotiated: string | undefined;

function cliSetup(): CliSetup {
  if (!install?.ok || !certificate) throw new Error("the suite did not set up");
  return { cli: install.cli, home, caFile: certificate.caFile };
}

function business(): string {
  if (!terminator) throw new Error("the https terminator did not start");
  return terminator.origin;
}

/** A test whose failure message ends with what the terminator forwarded and the server logged. */
function explained(run: () => Promise<void>): () => Promise<void> {
  return () =>
    run().catch((e: Error) => {
      const forwarded = terminator?.requests().slice(-30).join("\n");
      e.message += `\n--- https terminator (last requests) ---\n${forwarded}\n--- server log (tail) ---\n${server?.log().slice(-4000)}`;
      throw e;
    });
}

interface Agent {
  readonly version: string;
  readonly profile: PublishedAgentProfile;
  readonly url: string;
  /** --business, --profile and the API key header, for every operation. */
  readonly flags: readonly string[];
}

const agents = new Map<string, Promise<Agent>>();

/** A DIY CLI profile at `version` that advertises the local copy of Shopify's document, with an API key for it. */
function agent(version: string): Promise<Agent> {
  let made = agents.get(version);
  if (!made) {
    made = (async () => {
      const profile = profiles.find((p) => p.version === version);
      if (!profile)
        throw new Error(
          `ucp-cli ${CLI_VERSION} has no agent profile for ${version} (it has ${profiles.map((p) => p.version)})`,
        );
      const url = profileHost?.urlOf(profile) ?? "";
      const name = `interop-${version}`;
      const init = await ucp(cliSetup(), "profile init", [
        "profile",
        "init",
        "--name",
        name,
        "--version",
        version,
        "--profile-url",
        url,
      ]);
      expect(init).toMatchObject({ version, profile_url: url });
      // complete_checkout and get_order need an authenticated platform: the merchant issues it a key.
      const res = await fetch(`${server?.baseUrl}/admin/api-keys`, {
        method: "POST",
        headers: { authorization: "Bearer dev-admin-token", "content-type": "application/json" },
        body: JSON.stringify({ profile: url, label: `ucp-cli ${version}` }),
      });
      expect(res.status).toBe(201);
      const key = ((await res.json()) as { api_key: string }).api_key;
      const flags = ["--business", business(), "--profile", name, "--header", `Authorization: Bearer ${key}`];
      return { version, profile, url, flags };
    })();
    agents.set(version, made);
  }
  return made;
}

function under(kind: string): RegExp {
  return new RegExp(`^${business().replaceAll(".", "\\.")}/${kind}/[A-Za-z0-9_-]+`);
}

const ADDRESS = {
  first_name: "Jane",
  last_name: "Doe",
  street_address: "123 Main St",
  address_locality: "Springfield",
  address_region: "IL",
  postal_code: "62701",
  address_country: "US",
};

function instrument(token: string) {
  const credential = { type: "token", token };
  return { id: "instr_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential };
}

/** `ucp <args>` as `a`, checking the answer is rendered in a's version. */
async function op(a: Agent, step: string, args: readonly string[]): Promise<Json> {
  const answer = await ucp(cliSetup(), step, [...args, ...a.flags]);
  expect(answer.ucp?.version, `${step}: ${JSON.stringify(answer).slice(0, 2000)}`).toBe(a.version);
  expect(answer.result, `${step}: ${JSON.stringify(answer).slice(0, 2000)}`).toBeTypeOf("object");
  return answer.result;
}

/** Search, then the product's detail: a variant that is available now. */
async function shoeInStock(a: Agent): Promise<Json> {
  const search = await op(a, "catalog search", ["catalog", "search", "--set", "/query=shoe"]);
  const product = search.products?.[0];
  expect(product?.url, JSON.stringify(search).slice(0, 2000)).toMatch(under("products"));
  const detail = await op(a, "catalog get_product", ["catalog", "get_product", product.id]);
  expect(detail.product.id).toBe(product.id);
  const variant = detail.product.variants.find((v: Json) => v.availability?.available);
  expect(variant, JSON.stringify(detail.product.variants).slice(0, 2000)).toBeDefined();
  return variant;
}

async function purchase(version: string): Promise<void> {
  const a = await agent(version);
  const doctor = await ucp(cliSetup(), "doctor", ["doctor"], { UCP_PROFILE: `interop-${version}` });
  expect(doctor.ok, `ucp doctor: ${JSON.stringify(doctor.checks, null, 1)}`).toBe(true);

  const view = `{protocol: result.protocol, service: result.negotiated."dev.ucp.shopping"}`;
  const found = await ucp(cliSetup(), "discover", ["discover", ...a.flags, "--refresh", "--view", view]);
  expect(found.protocol).toMatchObject({ version, agentProfileUrl: a.url });
  expect(found.service).toMatchObject({ transport: "mcp", endpoint: `${business()}/ucp/mcp` });
  expect(Object.keys(found.service.tools)).toEqual(expect.arrayContaining(TOOLS));

  const variant = await shoeInStock(a);

  const lines = [{ item: { id: variant.id }, quantity: 1 }];
  const cart = await op(a, "cart create", ["cart", "create", "--input", JSON.stringify({ line_items: lines })]);
  expect(cart.continue_url).toMatch(under("cart"));

  const fromCart = { cart_id: cart.id, line_items: [] };
  const created = await op(a, "checkout create", ["checkout", "create", "--input", JSON.stringify(fromCart)]);
  expect(created.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([[variant.id, 1]]);
  expect(created.continue_url).toMatch(under("checkout"));

  // Updates replace the checkout: every one carries the lines, as request-shaped line items.
  const line = created.line_items[0];
  const base = {
    line_items: [{ id: line.id, item: { id: variant.id }, quantity: 1 }],
    buyer: { email: "jane@example.com" },
  };
  const withAddress = {
    ...base,
    fulfillment: { methods: [{ type: "shipping", line_item_ids: [line.id], destinations: [ADDRESS] }] },
  };
  const addressed = await op(a, "checkout update (buyer, address)", [
    "checkout",
    "update",
    created.id,
    "--input",
    JSON.stringify(withAddress),
  ]);
  expect(addressed.status, JSON.stringify(addressed.messages)).toBe("ready_for_complete");
  const group = addressed.fulfillment.methods[0].groups[0];
  const other = group.options.find((o: Json) => o.id !== group.selected_option_id);
  expect(other, JSON.stringify(group)).toBeDefined();

  const choice = {
    ...base,
    fulfillment: {
      methods: [
        { type: "shipping", line_item_ids: [line.id], groups: [{ id: group.id, selected_option_id: other.id }] },
      ],
    },
  };
  const chosen = await op(a, "checkout update (shipping option)", [
    "checkout",
    "update",
    created.id,
    "--input",
    JSON.stringify(choice),
  ]);
  expect(chosen.status, JSON.stringify(chosen.messages)).toBe("ready_for_complete");
  expect(chosen.fulfillment.methods[0].groups[0].selected_option_id).toBe(other.id);

  const hookFile = path.join(home, `escalation-${version}-purchase.json`);
  const payment = { payment: { instruments: [instrument("success_token")] } };
  const done = await op(a, "checkout complete", [
    "checkout",
    "complete",
    created.id,
    "--input",
    JSON.stringify(payment),
    "--on-escalation",
    `cat > '${hookFile}'`,
  ]);
  expect(done.status, JSON.stringify(done.messages)).toBe("completed");
  expect(done.order.permalink_url).toMatch(under("orders"));
  expect(existsSync(hookFile), "the escalation hook ran on a completed checkout").toBe(false);

  const order = await op(a, "order get", ["order", "get", done.order.id]);
  expect(order).toMatchObject({ id: done.order.id, checkout_id: created.id, permalink_url: done.order.permalink_url });

  const storeFetches = profileHost?.fetchesOf(a.profile).filter((ua) => !ua.startsWith("@shopify/ucp-cli")) ?? [];
  expect(storeFetches.length, `the store never fetched ${a.url}`).toBeGreaterThan(0);
}

describe.skipIf(skip)(`@shopify/ucp-cli ${CLI_VERSION} buys from the local store over https`, () => {
  beforeAll(async () => {
    if (!install?.ok) return;
    certificate = makeTestCertificate();
    profiles = publishedAgentProfiles(install.cli.packageDir);
    profileHost = await startAgentProfileHost({ profiles, ...certificate });
    const port = await freePort();
    terminator = await startTlsTerminator({ target: `http://127.0.0.1:${port}`, ...certificate });
    server = await startServer({
      port,
      vars: { MERCHANT_ORIGIN: terminator.origin, OUTBOUND_ALLOW: profileHost.origin, PROFILE_FALLBACK: "strict" },
      env: { NODE_EXTRA_CA_CERTS: certificate.caFile },
    });
    home = mkdtempSync(path.join(tmpdir(), "ucp-cli-home-"));
  }, STEP_MS);

  afterAll(async () => {
    await server?.stop();
    await terminator?.close();
    await profileHost?.close();
    certificate?.remove();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it(
    "negotiates the version discovery calls current, with Shopify's own profile",
    explained(async () => {
      const res = await httpsRequest(`${business()}/.well-known/ucp`, certificate?.ca ?? "");
      const current = JSON.parse(res.body).ucp.version;
      const found = await ucp(cliSetup(), "discover (Shopify's managed profile)", [
        "discover",
        "--business",
        business(),
        "--refresh",
        "--view",
        "result.protocol",
      ]);
      expect(found).toMatchObject({ version: current, businessProfileUrl: `${business()}/.well-known/ucp` });
      negotiated = found.version;
    }),
    STEP_MS,
  );

  it(
    "buys at the version it negotiated",
    explained(async () => {
      if (!negotiated) throw new Error("no version was negotiated (see the test before)");
      await purchase(negotiated);
    }),
    STEP_MS,
  );

  it(
    `buys with a profile pinned to ${PINNED}`,
    explained(() => purchase(PINNED)),
    STEP_MS,
  );

  it(
    "hands the buyer off through its escalation hook when the bank asks for verification",
    explained(async () => {
      const a = await agent(negotiated ?? PINNED);
      const variant = await shoeInStock(a);
      const order = {
        line_items: [{ item: { id: variant.id }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
      };
      const created = await op(a, "checkout create (buy now)", [
        "checkout",
        "create",
        "--input",
        JSON.stringify(order),
      ]);
      expect(created.status, JSON.stringify(created.messages)).toBe("ready_for_complete");

      const hookFile = path.join(home, "escalation-3ds.json");
      const payment = { payment: { instruments: [instrument("requires_3ds_token")] } };
      const answer = await op(a, "checkout complete (3-D Secure)", [
        "checkout",
        "complete",
        created.id,
        "--input",
        JSON.stringify(payment),
        "--on-escalation",
        `cat > '${hookFile}'`,
      ]);
      expect(answer.status, JSON.stringify(answer.messages)).toBe("requires_escalation");
      expect(answer.continue_url).toMatch(under("checkout"));
      expect(existsSync(hookFile), "the escalation hook did not run").toBe(true);
      const hook = JSON.parse(readFileSync(hookFile, "utf8"));
      expect(hook).toMatchObject({
        status: "requires_escalation",
        url: answer.continue_url,
        business: business(),
        operation: "complete_checkout",
      });
      const page = await httpsRequest(hook.url, certificate?.ca ?? "", { headers: { accept: "text/html" } });
      expect(page.status, `GET ${hook.url}`).toBe(200);
    }),
    STEP_MS,
  );
});
