/**
 * One MCP Apps view as a static HTML document: no data in it, only the store's name, locale,
 * accent colour and the view's words in the store's language, so a host may prefetch, vet and cache it (UCP ui.md
 * "Business Requirements"). The tool result arrives later over postMessage and is rendered by
 * the script (view-render-script.ts, view-session-script.ts, view-bridge-script.ts).
 */
import type { MerchantConfig } from "../../config";
import { accentCss } from "../../pages/styles";
import { SERVER_VERSION } from "../server";
import { VIEW_BRIDGE_SCRIPT } from "./view-bridge-script";
import type { ViewKind } from "./view-kinds";
import { viewLabels } from "./view-labels";
import { VIEW_RENDER_SCRIPT } from "./view-render-script";
import { VIEW_SESSION_SCRIPT } from "./view-session-script";
import { VIEW_STYLES } from "./view-styles";

const SCRIPT = `(function () {\n"use strict";\n${VIEW_RENDER_SCRIPT}${VIEW_SESSION_SCRIPT}${VIEW_BRIDGE_SCRIPT}})();`;

const built = new WeakMap<MerchantConfig, Map<ViewKind, string>>();

/** The view's HTML for this store, built once per isolate and config. */
export function viewHtml(kind: ViewKind, config: MerchantConfig): string {
  let byKind = built.get(config);
  if (!byKind) {
    byKind = new Map();
    built.set(config, byKind);
  }
  let html = byKind.get(kind);
  if (!html) {
    html = build(kind, config);
    byKind.set(kind, html);
  }
  return html;
}

function build(kind: ViewKind, config: MerchantConfig): string {
  const labels = viewLabels(config.storefront.locale);
  const settings = {
    kind,
    version: SERVER_VERSION,
    locale: config.storefront.locale,
    labels,
  };
  const title = `${labels[kind].title} · ${config.name}`;
  return `<!doctype html>
<html lang="${escapeAttribute(labels.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(title)}</title>
<style>${accentCss(config.storefront.accentColor)}${VIEW_STYLES}</style>
</head>
<body>
<main id="view" aria-busy="true"><p class="muted">${escapeText(labels.common.loading)}</p></main>
<p id="status" class="status" role="status" aria-live="polite"></p>
<script type="application/json" id="ucp-view-config">${scriptJson(settings)}</script>
<script>${SCRIPT}</script>
</body>
</html>`;
}

/** JSON inside <script>: `<` escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}
