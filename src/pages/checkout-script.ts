/**
 * The checkout page's small script (progressive enhancement; the page works without it):
 * - focus moves to the error summary after a submit, where autofocus is not honoured;
 * - when the address or shipping option changes, the form is sent in the background as
 *   "apply" (the same POST and the same tools as the button) and the totals, the shipping
 *   options and the button (Continue → Pay · total) are swapped in from the answer. The card
 *   fields never go into these requests; no error is shown for what the buyer is still typing.
 * Not while Stripe's Payment Element is on the page: its PaymentIntent is for the total shown
 * (the Pay button then sends a changed form as Continue, stripe-card-form.ts).
 */
export const CHECKOUT_SCRIPT = `(function () {
  var form = document.getElementById("checkout-form");
  if (!form) return;
  var summary = document.getElementById("error-summary");
  if (summary && summary.hasAttribute("autofocus") && document.activeElement !== summary) summary.focus();
  if (document.getElementById("stripe-card") || !window.fetch || !window.DOMParser) return;
  var watched = /^(option|address-)/;
  var running = null;
  var again = false;
  var timer = 0;
  var inside = function (el) { return el && el.contains(document.activeElement); };
  var swapInner = function (doc, id, keepFocus) {
    var fresh = doc.getElementById(id);
    var old = document.getElementById(id);
    if (!fresh || !old || (keepFocus && inside(old))) return;
    if (old.innerHTML !== fresh.innerHTML) old.innerHTML = fresh.innerHTML;
  };
  var copyValue = function (doc, selector) {
    var fresh = doc.querySelector(selector);
    var old = form.querySelector(selector);
    if (fresh && old) old.value = fresh.value;
  };
  var refresh = function () {
    if (running) { again = true; return; }
    var body = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (name !== "action" && name.indexOf("card_") !== 0) body.append(name, value);
    });
    body.append("action", "apply");
    form.setAttribute("aria-busy", "true");
    // getAttribute: the buttons named "action" shadow form.action.
    running = fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (res) { return res.text(); })
      .then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        if (!doc.getElementById("checkout-form")) return;
        copyValue(doc, "input[name=idempotency_key]");
        copyValue(doc, "input[name=shown_total]");
        swapInner(doc, "order-totals", false);
        swapInner(doc, "shipping-section", true);
        swapInner(doc, "pay-area", true);
        var enter = doc.querySelector("#checkout-form > button");
        var mine = form.querySelector(":scope > button");
        if (enter && mine) { mine.value = enter.value; mine.textContent = enter.textContent; }
      })
      .catch(function () {})
      .then(function () {
        running = null;
        form.removeAttribute("aria-busy");
        if (again) { again = false; refresh(); }
      });
  };
  form.addEventListener("change", function (event) {
    var name = event.target && event.target.name;
    if (!name || !watched.test(name)) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
  // A submit while the background request runs waits for it (its key is the form's key).
  form.addEventListener("submit", function (event) {
    if (!running) return;
    event.preventDefault();
    var button = event.submitter;
    running.then(function () { form.requestSubmit(button || undefined); });
  });
})();`;
