/**
 * The main module `npm start` runs in front of the built Worker (unchanged beside it): what
 * Cloudflare's edge does around a deployed Worker, at the cost of a set lookup per request.
 *
 * - A GET or HEAD for one of the [assets] files goes to the assets layer (a worker of its
 *   own, Miniflare's asset router and server with the folder's `_headers`); everything else
 *   goes straight to the Worker. Miniflare's own wiring put its router, and an RPC proxy in
 *   front of that, before every request: three isolate hops, ~3 ms CPU per purchase locally
 *   that Cloudflare does not bill the Worker (docs/benchmarks.md "npm start on Miniflare").
 *   The paths are the folder's files as Cloudflare's default html_handling
 *   (auto-trailing-slash) serves them: `x.html` also at `/x`, `d/index.html` at `/d/` and `/d`.
 * - A request body the Worker leaves unread (a 413 for a declared length past the cap, a 405)
 *   is read to its end after the answer, as wrangler dev's body-draining middleware did: on
 *   workerd's own socket an unread body of a megabyte resets the connection while the client
 *   still sends it, and the client saw ECONNRESET instead of the 413
 *   (test/e2e/wire.e2e.test.ts). On Cloudflare the edge holds the client's connection.
 */
import { readdirSync } from "node:fs";
import path from "node:path";

/** The service binding the edge module reaches the assets layer through. */
export const ASSETS_BINDING = "NPM_START_ASSETS";

const NOT_SERVED = new Set(["_headers", "_redirects", ".assetsignore"]);

/** Every URL path the [assets] folder answers, as Cloudflare's asset router matches them. */
export function assetPaths(dir: string): string[] {
  const paths = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || NOT_SERVED.has(entry.name)) continue;
    const file = `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`;
    paths.add(file);
    if (entry.name === "index.html") {
      const folder = file.slice(0, -"index.html".length);
      paths.add(folder);
      if (folder !== "/") paths.add(folder.slice(0, -1));
    } else if (file.endsWith(".html")) paths.add(file.slice(0, -".html".length));
  }
  return [...paths].map((p) => encodeURI(p)).sort();
}

export function edgeModule(main: string, paths: readonly string[]): string {
  return `import worker from "./${main}";
export * from "./${main}";
const ASSET_PATHS = new Set(${JSON.stringify(paths)});
export default {
  ...worker,
  async fetch(request, env, ctx) {
    if ((request.method === "GET" || request.method === "HEAD") && ASSET_PATHS.has(new URL(request.url).pathname)) {
      return env.${ASSETS_BINDING}.fetch(request);
    }
    try {
      return await worker.fetch(request, env, ctx);
    } finally {
      if (request.body !== null && !request.bodyUsed) {
        try {
          const reader = request.body.getReader();
          while (!(await reader.read()).done) {}
        } catch {}
      }
    }
  },
};
`;
}
