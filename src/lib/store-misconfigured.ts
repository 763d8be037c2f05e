/**
 * Thrown by a settings parser when a merchant setting that reached the Worker does not
 * parse. The MCP endpoint answers it with `storeMisconfigured()` (src/ucp/errors.ts) and one
 * log line naming the setting; `npm run check:config` runs the same parsers before deploy.
 */
export class StoreMisconfigured extends Error {
  override readonly name = "StoreMisconfigured";
  constructor(readonly problems: readonly string[]) {
    super(`store misconfigured: ${problems.join("; ")}`);
  }
}
