/**
 * The checkout page's side of ECP (2026-08-25 embedded-protocol.md, shopping/checkout/
 * embedded.md; 2026-04-08 services/shopping/embedded.openrpc.json), run only when the page is
 * framed (or a native host injected its bridge). Every document handshakes (ec.ready, upgraded
 * to a MessagePort when the host sends one); the session's first document then sends
 * ec.start, and later ones (after a form post or a delegated change) send the *.change
 * notifications for what differs from the checkout the previous document showed, totals
 * last; a completed checkout sends ec.complete
 * once. Messages go to, and are accepted from, the one origin the server allowed to frame
 * the page. Opened top-level, nothing here runs and the page works as a plain page.
 *
 * What a document leaves the next one is kept in window.name, which lives as long as the
 * frame: a cross-site frame's storage may be refused (third-party storage blocking), and a
 * navigation drops everything else. It holds the session's frame key (data-frame; never the
 * page's path, whose hand-off token is the session's credential: window.name outlives a
 * navigation to another origin), digests of the checkout's fields (no buyer data) and the
 * host's instruments without their credentials.
 */
export const EC_SCRIPT = `(function () {
  var marker = document.getElementById("ucp-ec");
  if (!marker) return;
  var bridge = window.EmbeddedCheckoutProtocolConsumer ||
    (window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.EmbeddedCheckoutProtocolConsumer);
  var framed = window.parent && window.parent !== window;
  if (!bridge && !framed) return;
  var origin = marker.getAttribute("data-origin");
  var version = marker.getAttribute("data-version");
  var proof = marker.getAttribute("data-proof");
  var frameKey = marker.getAttribute("data-frame") || "";
  var delegate = (marker.getAttribute("data-delegate") || "").split(",").filter(Boolean);
  // What the buyer reads comes with the page, in the store's language (page.ts data-msg-*).
  function words(name) { return marker.getAttribute("data-msg-" + name) || ""; }
  var checkout = {};
  try { checkout = JSON.parse(document.getElementById("ucp-ec-checkout").textContent || "{}"); } catch (e) {}
  var port = null, closed = false, pending = {}, seq = 0;
  var PREFIX = "ucp-ec:";
  var state = load();
  var hostInstruments = state && state.instruments;

  function has(d) { return delegate.indexOf(d) >= 0; }
  function post(message) {
    if (closed) return;
    if (port) port.postMessage(message);
    else if (bridge) bridge.postMessage(JSON.stringify(message));
    else window.parent.postMessage(message, origin);
  }
  function request(method, params) {
    seq += 1;
    var id = method + "_" + seq + "_" + Math.random().toString(36).slice(2, 8);
    return new Promise(function (resolve) {
      pending[id] = resolve;
      post({ jsonrpc: "2.0", id: id, method: method, params: params });
    });
  }
  function notify(method, params) { post({ jsonrpc: "2.0", method: method, params: params }); }
  function receive(message) {
    if (typeof message === "string") { try { message = JSON.parse(message); } catch (e) { return; } }
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.method !== undefined) {
      if (message.id !== undefined) post({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found." } });
      return;
    }
    var resolve = pending[message.id];
    if (!resolve) return;
    delete pending[message.id];
    resolve(message);
  }
  window.EmbeddedCheckoutProtocol = { postMessage: receive };
  window.addEventListener("message", function (event) {
    if (port || event.source !== window.parent || !origin || event.origin !== origin) return;
    receive(event.data);
  });

  function hash(value) {
    var text = JSON.stringify(value === undefined ? null : value), h = 2166136261, i;
    for (i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    return h.toString(16);
  }
  function digest(c) {
    var d = {};
    CHANGES.forEach(function (f) { d[f[0]] = hash(c[f[0]]); });
    return d;
  }
  function load() {
    try {
      if (String(window.name).indexOf(PREFIX) !== 0) return null;
      var saved = JSON.parse(window.name.slice(PREFIX.length));
      return saved && frameKey && saved.frame === frameKey ? saved : null;
    } catch (e) { return null; }
  }
  function save(extra) {
    state = { frame: frameKey, digest: digest(checkout), instruments: hostInstruments,
      complete: !!(state && state.complete) || !!extra };
    try { window.name = PREFIX + JSON.stringify(state); } catch (e) {}
  }
  function withoutCredentials(instruments) {
    return (instruments || []).map(function (i) {
      return { id: i.id, handler_id: i.handler_id, type: i.type, selected: i.selected, display: i.display };
    });
  }
  function shown() {
    if (!has("payment.instruments_change") || !hostInstruments) return checkout;
    var copy = {}, k;
    for (k in checkout) copy[k] = checkout[k];
    copy.payment = { instruments: hostInstruments };
    return copy;
  }
  var CHANGES = [["line_items", "ec.line_items.change"], ["buyer", "ec.buyer.change"],
    ["fulfillment", "ec.fulfillment.change"], ["payment", "ec.payment.change"],
    ["messages", "ec.messages.change"], ["totals", "ec.totals.change"]];
  function announce(before, after) {
    var now = digest(after);
    CHANGES.forEach(function (c) { if (before[c[0]] !== now[c[0]]) notify(c[1], { checkout: after }); });
  }
  function completed(after) {
    if (after.status !== "completed" || (state && state.complete)) return;
    notify("ec.complete", { checkout: after });
    checkout = after;
    save(true);
  }

  if (!version) {
    notify("ec.error", { error: {
      ucp: { version: marker.getAttribute("data-error-version"), status: "error" },
      messages: [{ type: "error", code: "not_supported_error", severity: "unrecoverable",
        content: "This store does not speak UCP version " + marker.getAttribute("data-requested-version") + "." }],
      continue_url: location.origin + location.pathname
    } });
    closed = true;
    return;
  }

  function handshake() {
    return request("ec.ready", { delegate: delegate }).then(function (reply) {
      var result = reply.result;
      if (!result || typeof result !== "object" || (result.ucp && result.ucp.status === "error")) {
        closed = true;
        return null;
      }
      if (result.upgrade && result.upgrade.port && typeof result.upgrade.port.postMessage === "function") {
        port = result.upgrade.port;
        port.onmessage = function (event) { receive(event.data); };
        if (port.start) port.start();
        return handshake();
      }
      return result;
    });
  }

  // The page's forms inside the frame: the proof stands in for the withheld cookie, and the
  // ec_ parameters ride along so the page after the post is embedded too.
  var ecQuery = location.search.slice(1).split("&").filter(function (p) { return p.indexOf("ec_") === 0; }).join("&");
  Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    var input = document.createElement("input");
    input.type = "hidden"; input.name = "_ec"; input.value = proof;
    form.appendChild(input);
    var action = new URL(form.getAttribute("action") || location.pathname, location.href);
    if (action.origin === location.origin && ecQuery) {
      action.search = (action.search ? action.search + "&" : "?") + ecQuery;
      form.setAttribute("action", action.pathname + action.search);
    }
  });

  // Links that leave the checkout: the host opens them (window.open delegated), else a new tab.
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest("a[href]") : null;
    if (!link || event.defaultPrevented) return;
    var url = new URL(link.getAttribute("href"), location.href);
    if (url.origin === location.origin && url.pathname === location.pathname) return;
    if (has("window.open") && !closed) {
      event.preventDefault();
      request("ec.window.open_request", { url: url.href });
    } else if (!link.target) {
      link.target = "_blank";
      link.rel = "noopener";
    }
  }, true);

  function call(op, extra) {
    var body = { op: op, proof: proof, version: version, key: "ec" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12) };
    for (var k in extra) body[k] = extra[k];
    return fetch(location.pathname + location.search, {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) { return r.json(); }).catch(function () { return {}; });
  }
  /**
   * What the buyer typed in the page's one form, applied before paying (a Continue): answers
   * the checkout as it now is, the one the host is asked to approve. Not applied (a field to
   * fix), the form goes as a plain Continue, whose page says what is wrong; answers null.
   */
  function saveForm() {
    var form = document.getElementById("checkout-form");
    if (!form || !window.FormData) return Promise.resolve(checkout);
    var fields = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    return call("save", { fields: fields }).then(function (answer) {
      if (answer && answer.checkout) return answer.checkout;
      var action = document.createElement("input");
      action.type = "hidden"; action.name = "action"; action.value = "continue";
      form.appendChild(action);
      form.submit();
      return null;
    });
  }
  /** The checkout moved on: the host hears what changed, and the next document compares with it. */
  function changed(after) {
    announce(digest(checkout), after);
    checkout = after;
    save();
  }
  function totalOf(c) {
    var total = (c.totals || []).filter(function (t) { return t && t.type === "total"; })[0];
    return total ? total.amount : undefined;
  }
  function reload() { location.replace(location.href); }
  function say(id, text) { var el = document.getElementById(id); if (el) el.textContent = text; }
  function errorText(result) {
    var m = result && result.messages && result.messages[0];
    return m && m.content ? m.content : "";
  }
  function describe(instrument) {
    var d = instrument && instrument.display || {};
    if (d.description) return d.description;
    return [d.brand, d.last_digits ? "•••• " + d.last_digits : ""].filter(Boolean).join(" ") || words("chosen");
  }
  function selected(instruments) {
    return (instruments || []).filter(function (i) { return i && i.selected; })[0] || (instruments || [])[0];
  }

  function pay(button) {
    button.disabled = true;
    say("ec-status", words("confirm"));
    var approved;
    saveForm().then(function (saved) {
      if (!saved) return null;
      changed(saved);
      approved = shown();
      return request("ec.payment.credential_request", { checkout: approved });
    }).then(function (reply) {
      if (!reply) return;
      var result = reply.result;
      if (!result || !result.ucp || result.ucp.status !== "success") {
        say("ec-status", errorText(result) || words("not-confirmed"));
        button.disabled = false;
        return;
      }
      var instruments = result.checkout && result.checkout.payment && result.checkout.payment.instruments;
      var chosen = selected(instruments);
      if (!chosen || !chosen.credential) {
        say("ec-status", words("no-payment"));
        button.disabled = false;
        return;
      }
      hostInstruments = withoutCredentials(instruments);
      say("ec-status", words("placing"));
      return call("complete", { instrument: chosen, total: totalOf(approved) }).then(function (answer) {
        if (answer && answer.error === "total_changed" && answer.checkout) {
          // Changed since the host's sheet: nothing was charged; the buyer sees the new total and pays again.
          changed(answer.checkout);
          say("ec-status", answer.message || words("not-placed"));
          button.disabled = false;
          return;
        }
        if (!answer || !answer.checkout) {
          say("ec-status", words("not-placed"));
          button.disabled = false;
          return;
        }
        announce(digest(checkout), answer.checkout);
        checkout = answer.checkout;
        completed(answer.checkout);
        save();
        reload();
      });
    });
  }

  function changeInstruments() {
    request("ec.payment.instruments_change_request", { checkout: shown() }).then(function (reply) {
      var result = reply.result;
      var instruments = result && result.ucp && result.ucp.status === "success" && result.checkout &&
        result.checkout.payment && result.checkout.payment.instruments;
      if (!instruments) return;
      hostInstruments = withoutCredentials(instruments);
      say("ec-instrument", describe(selected(hostInstruments)));
      notify("ec.payment.change", { checkout: shown() });
      save();
    });
  }

  function changeAddress(button) {
    button.disabled = true;
    request("ec.fulfillment.address_change_request", { checkout: shown() }).then(function (reply) {
      var result = reply.result;
      var methods = result && result.ucp && result.ucp.status === "success" && result.checkout &&
        result.checkout.fulfillment && result.checkout.fulfillment.methods;
      if (!methods) { say("ec-address-status", errorText(result)); button.disabled = false; return; }
      say("ec-address-status", words("updating-address"));
      return call("address", { methods: methods }).then(function (answer) {
        if (!answer || !answer.checkout) {
          say("ec-address-status", words("bad-address"));
          button.disabled = false;
          return;
        }
        announce(digest(checkout), answer.checkout);
        checkout = answer.checkout;
        save();
        reload();
      });
    });
  }

  handshake().then(function (result) {
    if (!result) return;
    var offered = result.checkout && result.checkout.payment && result.checkout.payment.instruments;
    if (has("payment.instruments_change") && Array.isArray(offered)) hostInstruments = withoutCredentials(offered);
    if (!state) notify("ec.start", { checkout: shown() });
    else announce(state.digest || {}, checkout);
    completed(checkout);
    save();
    if (hostInstruments) say("ec-instrument", describe(selected(hostInstruments)));
    var payButton = document.getElementById("ec-pay");
    if (payButton) { payButton.disabled = false; payButton.addEventListener("click", function () { pay(payButton); }); }
    var instrumentsButton = document.getElementById("ec-instruments");
    if (instrumentsButton) { instrumentsButton.disabled = false; instrumentsButton.addEventListener("click", changeInstruments); }
    var addressButton = document.getElementById("ec-address");
    if (addressButton) { addressButton.disabled = false; addressButton.addEventListener("click", function () { changeAddress(addressButton); }); }
  });
})();`;
