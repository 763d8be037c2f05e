/**
 * The cart and checkout views, as script text (same scope as view-render-script.ts). Neither
 * collects anything: checking out asks the host for create_checkout (a non-committing call,
 * UCP ui.md), and paying is always the store's own page, continue_url, opened with
 * ui/open-link. complete_checkout and the cancels are model-only (ui-extension.ts), so no view
 * could call them, and none tries. Fields read are common to 2026-04-08 and 2026-08-25
 * (id, status, currency, line_items[].item/quantity/totals, totals, messages, continue_url,
 * order.permalink_url).
 */
export const VIEW_SESSION_SCRIPT = String.raw`
function lineTotal(line) {
  var totals = Array.isArray(line.totals) ? line.totals : [];
  var total = totals.find(function (t) { return t && t.type === "total"; }) || totals.find(function (t) { return t && t.type === "subtotal"; });
  if (total && typeof total.amount === "number") return total.amount;
  return line.item && typeof line.item.price === "number" && typeof line.quantity === "number" ? line.item.price * line.quantity : undefined;
}

function linesTable(lines, currency) {
  var body = el("tbody", {}, lines.map(function (line) {
    var item = line.item || {};
    return el("tr", {}, [
      el("th", { scope: "row", text: str(item.title) || str(item.id) }),
      el("td", { className: "num", text: number(line.quantity) }),
      el("td", { className: "num", text: money(lineTotal(line), currency) }),
    ]);
  }));
  var head = el("thead", {}, [el("tr", {}, [
    el("th", { scope: "col", text: C.item }),
    el("th", { scope: "col", className: "num", text: C.quantity }),
    el("th", { scope: "col", className: "num", text: C.lineTotal }),
  ])]);
  return el("table", { className: "lines" }, [el("caption", { className: "sr-only", text: C.items }), head, body]);
}

/** As the pages: the kind's own word; a discount or fee keeps the API's text (it names the code). */
function totalLabel(t) {
  var keep = (t.type === "discount" || t.type === "items_discount" || t.type === "fee") && str(t.display_text);
  return keep || own(C.totals, t.type) || str(t.display_text) || str(t.type);
}

/** Taxes a tax-inclusive store's total holds ("incl. VAT (19%)" → the store's "incl."). */
function includedLabel(text) { return text.indexOf("incl. ") === 0 ? fill(C.included, { label: text.slice(6) }) : text; }

function totalsList(totals, currency) {
  var rows = (Array.isArray(totals) ? totals : []).filter(function (t) { return t && typeof t.amount === "number"; });
  if (!rows.length) return null;
  var items = [];
  rows.forEach(function (t) {
    items.push(el("div", { className: t.type === "total" ? "row grand" : "row" }, [
      el("dt", { text: totalLabel(t) }),
      el("dd", { text: money(t.amount, currency) }),
    ]));
    if (t.type !== "total" || !Array.isArray(t.lines)) return;
    t.lines.forEach(function (line) {
      if (!line || line.type !== "tax" || typeof line.amount !== "number") return;
      items.push(el("div", { className: "row included" }, [
        el("dt", { text: includedLabel(str(line.display_text)) }),
        el("dd", { text: money(line.amount, currency) }),
      ]));
    });
  });
  return el("dl", { className: "totals" }, items);
}

function renderCart(data) {
  var R = L.cart;
  var lines = Array.isArray(data.line_items) ? data.line_items : [];
  heading(R.heading);
  if (!lines.length) { put(el("p", { text: R.empty })); return; }
  put(linesTable(lines, data.currency));
  put(totalsList(data.totals, data.currency));
  put(messageList(data.messages));
  var actions = el("div", { className: "actions" });
  if (typeof data.id === "string") {
    var checkout = button(R.checkout);
    checkout.addEventListener("click", function () {
      callTool("create_checkout", { checkout: { cart_id: data.id } }, "checkout", checkout, data.continue_url);
    });
    actions.appendChild(checkout);
  }
  var open = link(data.continue_url, R.openCart);
  if (open) actions.appendChild(open);
  put(actions);
  put(el("p", { className: "muted small", text: C.indicative }));
}

function renderCheckout(data) {
  var R = L.checkout;
  var lines = Array.isArray(data.line_items) ? data.line_items : [];
  heading(R.heading);
  var status = str(data.status);
  if (own(R.status, status)) put(el("p", { className: "status-line", text: own(R.status, status) }));
  if (lines.length) put(linesTable(lines, data.currency));
  put(totalsList(data.totals, data.currency));
  if (status === "completed") {
    put(el("p", { className: "done", text: R.completed }));
    put(link(data.order && data.order.permalink_url, R.viewOrder, undefined, "button primary"));
    return;
  }
  if (status === "canceled") { put(el("p", { text: R.canceled })); return; }
  put(messageList(data.messages, status === "incomplete" ? R.needs : undefined));
  if (status === "complete_in_progress") { put(el("p", { text: R.inProgress })); return; }
  var pay = link(data.continue_url, R.pay, undefined, "button primary");
  if (pay) {
    pay.setAttribute("aria-describedby", "pay-hint");
    put(el("div", { className: "actions" }, [pay]));
    put(el("p", { id: "pay-hint", className: "muted small", text: R.payHint }));
  }
}

var RENDER = { "search-results": renderSearch, product: renderProduct, cart: renderCart, checkout: renderCheckout };
`;
