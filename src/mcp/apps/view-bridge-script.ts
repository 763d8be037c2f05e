/**
 * The view side of the MCP Apps protocol (ext-apps spec 2026-01-26), as plain script text for
 * the `ui://` templates: JSON-RPC over postMessage with the host (window.parent only),
 * `ui/initialize` then `ui/notifications/initialized`, tool results in, `ui/open-link`,
 * `tools/call` and size changes out. Hand-written instead of bundling the SDK's App class
 * (300 KB with its dependencies) into every view; the browser test drives it with the SDK's
 * own AppBridge. Shares one function scope with view-render-script.ts (view-html.ts joins
 * them); no template literals inside, so this stays a String.raw.
 */
export const VIEW_BRIDGE_SCRIPT = String.raw`
var APPS_PROTOCOL_VERSION = "2026-01-26";
var hostCaps = {};
var nextId = 1;
var pending = {};
var initialized = false;

function post(message) { window.parent.postMessage(message, "*"); }
function notify(method, params) { post({ jsonrpc: "2.0", method: method, params: params || {} }); }
function reply(id, result) { post({ jsonrpc: "2.0", id: id, result: result }); }
function request(method, params) {
  var id = nextId++;
  post({ jsonrpc: "2.0", id: id, method: method, params: params });
  return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
}

window.addEventListener("message", function (event) {
  if (event.source !== window.parent) return;
  var m = event.data;
  if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return;
  if (typeof m.method !== "string") {
    var waiter = pending[m.id];
    if (!waiter) return;
    delete pending[m.id];
    if (m.error) waiter.reject(m.error); else waiter.resolve(m.result);
    return;
  }
  switch (m.method) {
    case "ui/notifications/tool-result": showResult(CONFIG.kind, m.params); return;
    case "ui/notifications/tool-cancelled": say(C.cancelled); return;
    case "ui/notifications/host-context-changed": applyContext(m.params); return;
    case "ui/resource-teardown": reply(m.id, {}); return;
    case "ping": reply(m.id, {}); return;
  }
  if (m.id !== undefined) post({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
});

function applyContext(context) {
  if (!context || typeof context !== "object") return;
  if (context.theme === "dark" || context.theme === "light") document.documentElement.setAttribute("data-theme", context.theme);
  var vars = context.styles && context.styles.variables;
  if (vars && typeof vars === "object") {
    Object.keys(vars).forEach(function (name) {
      if (/^--[a-z0-9-]+$/.test(name) && typeof vars[name] === "string") document.documentElement.style.setProperty(name, vars[name]);
    });
  }
}

var lastHeight = 0;
function reportSize() {
  if (!initialized) return;
  var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  notify("ui/notifications/size-changed", { height: height });
}

function openLink(href) {
  return request("ui/open-link", { url: href }).then(
    function (result) { say(result && result.isError ? C.openFailed : C.opened); },
    function () { say(C.openFailed); }
  );
}

request("ui/initialize", {
  protocolVersion: APPS_PROTOCOL_VERSION,
  appInfo: { name: "ucp-worker-" + CONFIG.kind, version: CONFIG.version },
  appCapabilities: {}
}).then(function (result) {
  hostCaps = (result && result.hostCapabilities) || {};
  applyContext(result && result.hostContext);
  initialized = true;
  notify("ui/notifications/initialized");
  if (window.ResizeObserver) new ResizeObserver(reportSize).observe(document.documentElement);
  reportSize();
}, function () { say(C.failed); });
`;
