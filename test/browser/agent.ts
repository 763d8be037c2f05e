/**
 * The shopping agent of the browser tests: the official MCP SDK client on the server's
 * /ucp/mcp, as a platform the merchant issued an API key (the way
 * test/e2e/mcp-client.e2e.test.ts sets one up), or anonymous. It is how a test gets real
 * carts, checkouts and orders whose buyer-facing URLs the browser then opens.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const AGENT_PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";
/** `.dev.vars`' development admin token, which `npm start` serves with. */
const DEV_ADMIN_TOKEN = "dev-admin-token";

// biome-ignore lint/suspicious/noExplicitAny: -- tool payloads are inspected structurally
export type Json = any;

export interface Agent {
  readonly client: Client;
  /**
   * tools/call with `meta["ucp-agent"].profile` (and a fresh `idempotency-key` for create_,
   * update_, cancel_ and complete_ tools); rejects on a JSON-RPC error or an `isError`
   * result, else returns `structuredContent` (business errors included: check `ucp.status`).
   */
  call(tool: string, args: Record<string, unknown>): Promise<Json>;
  close(): Promise<void>;
}

/** Connects an agent; `anonymous` skips the API key (tools needing a platform then fail 401). */
export async function connectAgent(baseUrl: string, options: { anonymous?: boolean } = {}): Promise<Agent> {
  const headers: Record<string, string> = {};
  if (!options.anonymous) headers.authorization = `Bearer ${await issueApiKey(baseUrl)}`;
  const client = new Client({ name: "ucp-worker-browser-tests", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/ucp/mcp`), { requestInit: { headers } }));
  // listTools first, so the SDK checks every structuredContent against its outputSchema.
  await client.listTools();
  return {
    client,
    async call(tool, args) {
      const meta = {
        "ucp-agent": { profile: AGENT_PROFILE },
        ...(/^(create|update|cancel|complete)_/.test(tool) ? { "idempotency-key": crypto.randomUUID() } : {}),
      };
      const result = await client.callTool({ name: tool, arguments: { meta, ...args } });
      if (result.isError) throw new Error(`${tool}: isError result ${JSON.stringify(result.content)}`);
      return result.structuredContent;
    },
    close: () => client.close(),
  };
}

export async function issueApiKey(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ profile: AGENT_PROFILE, label: "browser tests" }),
  });
  if (res.status !== 201) throw new Error(`POST /admin/api-keys answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}
