/**
 * What every view shares, and the catalog views (search results, product), as script text.
 * Every value from the tool result reaches the page through textContent or setAttribute, never
 * as markup; links and images only with https URLs (http on localhost, as src/lib/public-url.ts
 * allows). Fields read are the ones 2026-04-08 and 2026-08-25 share (title, media, variants'
 * price/list_price/availability/url, price_range, pagination, messages), so both versions
 * render without knowing which one answered. Each view's `ucp.capabilities` names only its own
 * capability here (relevantCapabilities), so a cross-capability step (add to cart, check out)
 * is asked of the host, and a capabilities_incompatible answer or a refusal hands off to the
 * store's page with ui/open-link instead (UCP ui.md "Interactions").
 */
export const VIEW_RENDER_SCRIPT = String.raw`
var CONFIG = JSON.parse(document.getElementById("ucp-view-config").textContent);
var L = CONFIG.labels;
var C = L.common;
var root = document.getElementById("view");
var statusLine = document.getElementById("status");
var busy = false;

function say(text) { statusLine.textContent = text || ""; }
function str(value) { return typeof value === "string" ? value : ""; }
/** A label by a key from the tool result, own entries only (a "constructor" code names nothing). */
function own(labels, key) { return typeof key === "string" && Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : ""; }
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, function (whole, name) { return params[name] === undefined ? whole : String(params[name]); });
}
function number(n) { try { return new Intl.NumberFormat(CONFIG.locale).format(n); } catch (e) { return String(n); } }
function plural(message, n) {
  var forms = message.forms;
  if (typeof forms === "string") return fill(forms, { count: number(n) });
  var category = "other";
  try { category = new Intl.PluralRules(message.locale).select(n); } catch (e) {}
  return fill(forms[category] || forms.other, { count: number(n) });
}

var moneyFormats = {};
function money(amount, currency) {
  if (typeof amount !== "number" || typeof currency !== "string") return "";
  try {
    var format = moneyFormats[currency] || (moneyFormats[currency] = new Intl.NumberFormat(CONFIG.locale, { style: "currency", currency: currency }));
    return format.format(amount / Math.pow(10, format.resolvedOptions().maximumFractionDigits));
  } catch (e) { return amount + " " + currency; }
}

function safeUrl(value) {
  if (typeof value !== "string") return undefined;
  var url;
  try { url = new URL(value); } catch (e) { return undefined; }
  if (url.protocol === "https:") return url.href;
  var local = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  return url.protocol === "http:" && local ? url.href : undefined;
}

function el(tag, props, children) {
  var node = document.createElement(tag);
  Object.keys(props || {}).forEach(function (key) {
    var value = props[key];
    if (value === undefined || value === null || value === false) return;
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  });
  (children || []).forEach(function (child) {
    if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  });
  return node;
}
function hidden(text) { return el("span", { className: "sr-only", text: text }); }
function put(node) { if (node) root.appendChild(node); }

function heading(text) {
  var h = el("h1", { tabindex: "-1", text: text });
  root.appendChild(h);
  return h;
}

function link(url, text, extra, className) {
  var href = safeUrl(url);
  if (!href) return null;
  var a = el("a", { href: href, target: "_blank", rel: "noopener noreferrer", className: className }, [text, extra ? hidden(extra) : null]);
  a.addEventListener("click", function (event) {
    if (!hostCaps.openLinks) return;
    event.preventDefault();
    openLink(href);
  });
  return a;
}

function button(text, extra) { return el("button", { type: "button", className: "button primary" }, [text, extra ? hidden(extra) : null]); }

function image(media, alt) {
  var first = Array.isArray(media) ? media.find(function (m) { return m && (!m.type || m.type === "image") && safeUrl(m.url); }) : undefined;
  if (!first) return null;
  var img = el("img", { src: safeUrl(first.url), alt: str(first.alt_text) || alt || "", loading: "lazy", decoding: "async" });
  img.addEventListener("error", function () { img.remove(); });
  return img;
}

function messageList(messages, title) {
  var shown = (Array.isArray(messages) ? messages : []).filter(function (m) { return m && typeof m.content === "string"; });
  if (!shown.length) return null;
  var list = el("ul", { className: "messages" }, shown.map(function (m) {
    return el("li", { className: m.type === "error" ? "msg error" : "msg", text: own(C.messages, m.code) || m.content });
  }));
  return el("section", { className: "notice", "aria-label": title || C.items }, [title ? el("h2", { text: title }) : null, list]);
}

function firstCode(data) { var m = data && Array.isArray(data.messages) ? data.messages[0] : undefined; return m && m.code; }

function showResult(kind, result) {
  var data = result && result.structuredContent;
  root.textContent = "";
  root.removeAttribute("aria-busy");
  if (!data || typeof data !== "object") { heading(C.failed); root.appendChild(el("p", { text: C.noData })); return; }
  var render = RENDER[kind] || RENDER["search-results"];
  if (data.ucp && data.ucp.status === "error") {
    heading(C.failed);
    var box = messageList(data.messages);
    if (box) root.appendChild(box);
    return;
  }
  render(data);
}

/** A cross-capability step through the host; the store's page when the host or the platform cannot. */
function callTool(name, args, kind, control, fallbackUrl) {
  if (busy) return;
  var fallback = safeUrl(fallbackUrl);
  if (!hostCaps.serverTools) { if (fallback) openLink(fallback); return; }
  busy = true;
  control.disabled = true;
  root.setAttribute("aria-busy", "true");
  say(C.working);
  request("tools/call", { name: name, arguments: args }).then(function (result) {
    var data = result && result.structuredContent;
    if (fallback && (!data || firstCode(data) === "capabilities_incompatible")) { openLink(fallback); return; }
    say("");
    showResult(kind, result);
    var h = root.querySelector("h1");
    if (h) h.focus();
  }, function () {
    if (fallback) openLink(fallback); else say(C.failed);
  }).then(function () {
    busy = false;
    control.disabled = false;
    root.removeAttribute("aria-busy");
  });
}

function addToCart(variantId, control, fallbackUrl) {
  callTool("create_cart", { cart: { line_items: [{ item: { id: variantId }, quantity: 1 }] } }, "cart", control, fallbackUrl);
}

function priceBlock(price, listPrice, prefix) {
  if (!price) return null;
  var text = money(price.amount, price.currency);
  var p = el("p", { className: "price" }, [prefix ? fill(prefix, { price: text }) : text]);
  if (listPrice && typeof listPrice.amount === "number" && listPrice.amount > price.amount) {
    p.appendChild(document.createTextNode(" "));
    p.appendChild(el("del", { text: money(listPrice.amount, listPrice.currency) }));
  }
  return p;
}

function available(variant) { return !(variant && variant.availability && variant.availability.available === false); }

function productCard(product) {
  var R = L["search-results"];
  var variant = (Array.isArray(product.variants) && product.variants[0]) || {};
  var title = str(product.title) || str(variant.title);
  var range = product.price_range;
  var varies = range && range.min && range.max && range.min.amount !== range.max.amount;
  var actions = el("div", { className: "actions" });
  var pageUrl = variant.url || product.url;
  if (available(variant) && typeof variant.id === "string") {
    var add = button(R.addToCart, " – " + title);
    add.addEventListener("click", function () { addToCart(variant.id, add, pageUrl); });
    actions.appendChild(add);
  }
  var view = link(pageUrl, R.view, " – " + title);
  if (view) actions.appendChild(view);
  return el("li", { className: "card" }, [
    image(variant.media, "") || image(product.media, ""),
    el("h2", { className: "title", text: title }),
    varies ? priceBlock(range.min, undefined, R.from) : priceBlock(variant.price || (range && range.min), variant.list_price),
    available(variant) ? null : el("p", { className: "badge", text: R.outOfStock }),
    actions,
  ]);
}

function renderSearch(data) {
  var R = L["search-results"];
  var products = Array.isArray(data.products) ? data.products : [];
  heading(R.heading);
  var total = data.pagination && typeof data.pagination.total_count === "number" ? data.pagination.total_count : products.length;
  root.appendChild(el("p", { className: "muted", text: plural(R.count, total) }));
  if (!products.length) root.appendChild(el("p", { text: R.none }));
  else root.appendChild(el("ul", { className: "products" }, products.map(productCard)));
  if (data.pagination && data.pagination.has_next_page) root.appendChild(el("p", { className: "muted", text: R.more }));
  put(messageList(data.messages));
  root.appendChild(el("p", { className: "muted small", text: C.indicative }));
}

function renderProduct(data) {
  var R = L.product;
  var product = data.product || {};
  var variants = (Array.isArray(product.variants) ? product.variants : []).filter(function (v) { return v && typeof v.id === "string"; });
  heading(str(product.title));
  var gallery = image(variants[0] && variants[0].media, "") || image(product.media, "");
  if (gallery) put(el("div", { className: "gallery" }, [gallery]));
  var description = product.description ? str(product.description.plain) || str(product.description.markdown) : "";
  if (description) root.appendChild(el("p", { className: "description", text: description }));
  var priceSlot = el("div", { "aria-live": "polite" });
  root.appendChild(priceSlot);
  var add = button(R.addToCart);
  var select = el("select", { id: "variant" }, variants.map(function (v, i) {
    var label = str(v.title) + " · " + money(v.price && v.price.amount, v.price && v.price.currency) + (available(v) ? "" : " · " + R.outOfStock);
    return el("option", { value: String(i), text: label });
  }));
  function chosen() { return variants[Number(select.value)] || variants[0]; }
  function update() {
    var v = chosen();
    priceSlot.textContent = "";
    if (v) priceSlot.appendChild(priceBlock(v.price, v.list_price));
    add.disabled = !v || !available(v);
  }
  select.addEventListener("change", update);
  if (variants.length > 1) root.appendChild(el("div", { className: "field" }, [el("label", { for: "variant", text: R.variant }), select]));
  update();
  add.addEventListener("click", function () { var v = chosen(); if (v) addToCart(v.id, add, v.url || product.url); });
  root.appendChild(el("div", { className: "actions" }, [add, link(product.url, R.viewProduct)]));
  put(messageList(data.messages));
  root.appendChild(el("p", { className: "muted small", text: C.indicative }));
}
`;
