/** The console's platforms pages (issue 13): API keys listed, issued (the secret shown once) and revoked. */
import { issuePlatformKey, listPlatforms, revokePlatformKey, showIssuedKey } from "./platforms-actions";
import type { ConsoleRoute } from "./types";

export const PLATFORMS_ROUTES: readonly ConsoleRoute[] = [
  { method: "GET", path: "/admin/platforms", handler: (ctx) => listPlatforms(ctx) },
  { method: "POST", path: "/admin/platforms", handler: (ctx) => issuePlatformKey(ctx) },
  { method: "GET", path: "/admin/platforms/issued", handler: (ctx) => showIssuedKey(ctx) },
  { method: "POST", path: "/admin/platforms/:id/revoke", handler: revokePlatformKey },
];
