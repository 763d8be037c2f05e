/**
 * Where the store publishes what discovery names. The root profile (the current version) is
 * /.well-known/ucp; each older version's leaf profile is a file of its own under
 * /.well-known/ucp-profiles/, not /.well-known/ucp/<version>: /.well-known/ucp is itself a
 * static file, and a path cannot be a file and a folder at once (docs/decisions/protocol.md, issue 23).
 */
import { CURRENT_VERSION, type UcpVersion } from "./versions";

/**
 * The REST binding's base path (src/rest/): the OpenAPI document's `servers` default
 * (`https://merchant.example.com/ucp`), so its paths sit beside /ucp/mcp.
 */
export const REST_PATH = "/ucp";

export const ROOT_PROFILE_PATH = "/.well-known/ucp";

/** The URL path of the profile that describes `version`. */
export function profilePath(version: UcpVersion): string {
  return version === CURRENT_VERSION ? ROOT_PROFILE_PATH : `/.well-known/ucp-profiles/${version}`;
}
