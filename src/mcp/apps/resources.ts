/**
 * resources/list and resources/read for the MCP Apps views: the only resources this server has.
 * Each is a `text/html;profile=mcp-app` template with its `_meta.ui` (CSP, border) on the list
 * entry and on the content item, as ext-apps' registerAppResource writes them.
 */
import type { MerchantConfig } from "../../config";
import { err, ok, type Result } from "../../lib/result";
import { invalidParams, type ProtocolError } from "../../ucp/errors";
import type { Era } from "../era";
import { protocolError, RPC } from "../jsonrpc";
import { UI_MIME_TYPE, VIEW_URI, viewKindOf } from "./ui-extension";
import { viewHtml } from "./view-html";
import { VIEW_INFO, VIEW_KINDS, type ViewKind } from "./view-kinds";

/** Resource not found: -32002 until 2025-11-25, -32602 from 2026-07-28 (SEP-2164). */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

/**
 * The views fetch nothing (connectDomains empty: data comes from the host, and no endpoint that
 * changes UCP state may be listed, ui.md); images load from the store's own origin. A catalog
 * whose images live elsewhere shows the views without them (alt text), unless the host allows more.
 */
function uiMeta(config: MerchantConfig) {
  return { ui: { csp: { connectDomains: [], resourceDomains: [config.origin] }, prefersBorder: true } };
}

export function resourcesListResult(config: MerchantConfig) {
  return {
    resources: VIEW_KINDS.map((kind) => ({
      uri: VIEW_URI[kind],
      name: kind,
      title: VIEW_INFO[kind].title,
      description: VIEW_INFO[kind].description,
      mimeType: UI_MIME_TYPE,
      _meta: uiMeta(config),
    })),
  };
}

export function resourcesReadResult(
  params: Record<string, unknown>,
  config: MerchantConfig,
  era: Era,
): Result<unknown, ProtocolError> {
  const { uri } = params;
  if (typeof uri !== "string") {
    return err(invalidParams('resources/read needs a string "uri"'));
  }
  const kind: ViewKind | undefined = viewKindOf(uri);
  if (!kind) {
    const code = era.kind === "modern" ? RPC.invalidParams : LEGACY_RESOURCE_NOT_FOUND;
    return err(protocolError(code, 200, "Resource not found", { uri: uri.slice(0, 200) }));
  }
  return ok({ contents: [{ uri, mimeType: UI_MIME_TYPE, text: viewHtml(kind, config), _meta: uiMeta(config) }] });
}
