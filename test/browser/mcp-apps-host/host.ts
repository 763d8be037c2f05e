/**
 * A minimal MCP Apps host, bundled with esbuild into the browser test's host page: the official
 * MCP SDK client on the real server's /ucp/mcp, and the ext-apps SDK's AppBridge +
 * PostMessageTransport for each view, in a sandboxed iframe (allow-scripts only, so the view
 * has an opaque origin). As a UCP Platform it (ui.md "Platform Requirements") sets
 * arguments.meta on every call a view asks for, with its own profile and a fresh idempotency
 * key, and refuses tools whose visibility leaves out "app". Everything it sees is kept on
 * `window.mcpHost.log` for the test to assert.
 */
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

interface HostLog {
  /** Calls the views asked for, as forwarded (with the meta the host added), and what came back. */
  viewCalls: Array<{ name: string; arguments: Record<string, unknown>; result?: CallToolResult; refused?: boolean }>;
  openedLinks: string[];
  initialized: number;
  sizes: number[];
}

const log: HostLog = { viewCalls: [], openedLinks: [], initialized: 0, sizes: [] };
let client: Client | undefined;
let tools: Tool[] = [];
let profile = "";

async function connect(serverUrl: string, apiKey: string, agentProfile: string): Promise<void> {
  profile = agentProfile;
  client = new Client(
    { name: "ucp-worker-apps-host", version: "0.0.0" },
    // biome-ignore lint/suspicious/noExplicitAny: -- `extensions` is SEP-2133, not yet in the 1.x client types
    { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } } as any },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${serverUrl}/ucp/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  tools = (await client.listTools()).tools;
}

function connected(): Client {
  if (!client) throw new Error("mcpHost.connect first");
  return client;
}

function withMeta(name: string, args: Record<string, unknown>): Record<string, unknown> {
  const { meta: _dropped, ...rest } = args;
  const key = /^(create|update|cancel|complete)_/.test(name) ? { "idempotency-key": crypto.randomUUID() } : {};
  return { ...rest, meta: { "ucp-agent": { profile }, ...key } };
}

/** A tool call the model makes (no view). */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await connected().callTool({ name, arguments: withMeta(name, args) })) as CallToolResult;
}

function appVisible(tool: Tool | undefined): boolean {
  const visibility = (tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility;
  return tool !== undefined && (visibility === undefined || visibility.includes("app"));
}

/** The model calls a tool; the host renders its view (from resources/read) with the result. */
async function show(name: string, args: Record<string, unknown>): Promise<{ uri: string; result: CallToolResult }> {
  const mcp = connected();
  const tool = tools.find((t) => t.name === name);
  const uri = tool && getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${name} declares no view`);
  const result = await call(name, args);
  const read = await mcp.readResource({ uri });
  const content = read.contents[0] as { mimeType?: string; text?: string } | undefined;
  if (content?.mimeType !== RESOURCE_MIME_TYPE || typeof content.text !== "string") {
    throw new Error(`${uri} is not an MCP App (${content?.mimeType})`);
  }
  const slot = document.getElementById("views") as HTMLElement;
  slot.textContent = "";
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.title = `${(read.contents[0] as { uri: string }).uri} (the store's view)`;
  frame.setAttribute("sandbox", "allow-scripts");
  slot.appendChild(frame);

  const bridge = new AppBridge(
    mcp,
    { name: "ucp-worker-apps-host", version: "0.0.0" },
    { openLinks: {}, serverTools: {}, logging: {} },
    { hostContext: { theme: "light", locale: "en-US", platform: "web", displayMode: "inline" } },
  );
  bridge.oninitialized = () => {
    log.initialized += 1;
    void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result));
  };
  bridge.onopenlink = async ({ url }) => {
    log.openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === "number") {
      log.sizes.push(height);
      frame.style.height = `${height}px`;
    }
  };
  const window = frame.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(window, window));
  // After connect: AppBridge forwards tools/call to the client as is; a Platform adds its meta.
  bridge.oncalltool = async (params) => {
    const entry: HostLog["viewCalls"][number] = { name: params.name, arguments: params.arguments ?? {} };
    log.viewCalls.push(entry);
    if (!appVisible(tools.find((t) => t.name === params.name))) {
      entry.refused = true;
      throw new Error(`${params.name} is not visible to apps`);
    }
    entry.arguments = withMeta(params.name, params.arguments ?? {});
    entry.result = (await mcp.callTool({ name: params.name, arguments: entry.arguments })) as CallToolResult;
    return entry.result;
  };
  frame.srcdoc = content.text;
  return { uri, result };
}

Object.assign(globalThis, { mcpHost: { connect, call, show, log } });
