/**
 * The agent profiles the CLI presents are Shopify's published documents
 * (https://shopify.dev/ucp/agent-profiles/<version>/valid-with-capabilities.json), which the
 * store cannot reach from here. The CLI package carries each one verbatim (its generated
 * agent_profile.ts, "byte-for-byte"), so this serves exactly those bytes over https from
 * 127.0.0.1, at the same path, and the CLI is told to send that URL instead.
 */
import { readdirSync, readFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface PublishedAgentProfile {
  readonly version: string;
  /** Where Shopify publishes it. */
  readonly url: string;
  readonly body: string;
}

/** Every release the installed CLI carries an agent profile for. */
export function publishedAgentProfiles(packageDir: string): PublishedAgentProfile[] {
  const generated = path.join(packageDir, "src", "core", "generated");
  return readdirSync(generated)
    .filter((version) => /^\d{4}-\d{2}-\d{2}$/.test(version))
    .sort()
    .map((version) => {
      const file = path.join(generated, version, "agent_profile.ts");
      const source = readFileSync(file, "utf8");
      const literal = (name: string) => {
        const match = new RegExp(`export const ${name}: string = (".*")\\s*$`, "m").exec(source);
        if (!match?.[1]) throw new Error(`${file}: no ${name} string literal (has the package changed its layout?)`);
        return JSON.parse(match[1]) as string;
      };
      return { version, url: literal("agentProfileUrl"), body: literal("agentProfileJson") };
    });
}

export interface AgentProfileHost {
  /** The local https URL serving `profile`. */
  urlOf(profile: PublishedAgentProfile): string;
  /** The User-Agent of every GET of `profile` so far ("" when none was sent). */
  fetchesOf(profile: PublishedAgentProfile): readonly string[];
  readonly origin: string;
  close(): Promise<void>;
}

export async function startAgentProfileHost(options: {
  readonly profiles: readonly PublishedAgentProfile[];
  readonly cert: string;
  readonly key: string;
}): Promise<AgentProfileHost> {
  const byPath = new Map(options.profiles.map((p) => [new URL(p.url).pathname, p]));
  const fetches = new Map<string, string[]>();
  const server = https.createServer({ cert: options.cert, key: options.key }, (req, res) => {
    const pathname = new URL(req.url ?? "/", "https://host").pathname;
    const profile = byPath.get(pathname);
    if (!profile || req.method !== "GET") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    fetches.set(pathname, [...(fetches.get(pathname) ?? []), req.headers["user-agent"] ?? ""]);
    // As a profile host should: no redirect, cacheable for at least the spec's 60 s floor.
    res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=300" });
    res.end(profile.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urlOf: (profile) => `${origin}${new URL(profile.url).pathname}`,
    fetchesOf: (profile) => fetches.get(new URL(profile.url).pathname) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
