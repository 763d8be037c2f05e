/**
 * MCP Apps (extension io.modelcontextprotocol/ui, spec 2026-01-26) as UCP's UI extension binds
 * it (common/extensions/ui.md "MCP Apps Binding"): which tools declare a view
 * (`_meta.ui.resourceUri`), which tools a view may never call (`_meta.ui.visibility`), and the
 * `ui://` resources behind them. Tool names and schemas are untouched; only `_meta` is added.
 * The constants are the extension's own (ext-apps' RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY):
 * the server needs its words, not its SDK.
 */
import { VIEW_KINDS, type ViewKind } from "./view-kinds";

export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";
export const UI_MIME_TYPE = "text/html;profile=mcp-app";
/** The pre-2026 flat key; ext-apps' registerAppTool still writes it beside `ui.resourceUri` for older hosts. */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

export const VIEW_URI: Readonly<Record<ViewKind, string>> = Object.fromEntries(
  VIEW_KINDS.map((kind) => [kind, `ui://ucp-worker/${kind}`]),
) as Record<ViewKind, string>;

/** The view each tool's result renders in; tools not named here have none. */
const TOOL_VIEW: Readonly<Record<string, ViewKind>> = {
  search_catalog: "search-results",
  lookup_catalog: "search-results",
  get_product: "product",
  create_cart: "cart",
  get_cart: "cart",
  update_cart: "cart",
  create_checkout: "checkout",
  get_checkout: "checkout",
  update_checkout: "checkout",
  // Shows the placed order's link; still model-only below.
  complete_checkout: "checkout",
};

/**
 * UCP ui.md: "The tool visibility of complete_checkout, cancel_checkout, and cancel_cart MUST NOT
 * include "app"" (Platform UI only). Every other tool keeps ext-apps' default (model and app).
 */
const MODEL_ONLY = new Set(["complete_checkout", "cancel_checkout", "cancel_cart"]);

/** The tool's `_meta` in tools/list, or undefined when it has neither a view nor a restriction. */
export function toolUiMeta(tool: string): Record<string, unknown> | undefined {
  const kind = TOOL_VIEW[tool];
  const uri = kind ? VIEW_URI[kind] : undefined;
  const visibility = MODEL_ONLY.has(tool) ? { visibility: ["model"] } : {};
  if (!uri && !MODEL_ONLY.has(tool)) return undefined;
  return {
    ui: { ...(uri ? { resourceUri: uri } : {}), ...visibility },
    ...(uri ? { [LEGACY_RESOURCE_URI_KEY]: uri } : {}),
  };
}

/** The view kind a `ui://` URI names, if it is one of ours. */
export function viewKindOf(uri: string): ViewKind | undefined {
  return VIEW_KINDS.find((kind) => VIEW_URI[kind] === uri);
}
