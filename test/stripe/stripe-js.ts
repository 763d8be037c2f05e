/**
 * A minimal stand-in for Stripe.js (https://js.stripe.com/v3) for browser tests of the
 * checkout page's card form (src/pages/stripe-card-form.ts), served by server.ts at `/v3` on
 * the stand-in's origin (STRIPE_JS_URL = `<url>/v3`). It implements only what the page calls:
 * `Stripe(pk)`, `stripe.elements({clientSecret})`, `elements.create("payment").mount(el)`,
 * `stripe.confirmPayment({elements, redirect: "if_required"})` and
 * `stripe.handleNextAction({clientSecret})` (the verify page's bank step for an agent's charge).
 *
 * Unlike the real Payment Element (card fields in Stripe's iframes), the "element" is an
 * in-page choice of Stripe's test payment methods (pm_card_visa, a decline, a 3-D Secure
 * card). Confirming POSTs to the stand-in's confirm with the publishable key and the
 * client_secret, as Stripe.js does; a `requires_action` answer is completed the way Stripe.js
 * handles the next action (here: the stand-in's /__stand-in/authenticate, passed).
 * handleNextAction opens a modal "bank window" in the page (the real one is Stripe's iframe)
 * where the buyer completes or fails the authentication, then resolves as Stripe.js does:
 * `{paymentIntent}` or `{error}`.
 */
import type { StripeStandIn } from "./handler.ts";

export const STRIPE_JS_SOURCE = `(function () {
  var base = new URL(document.currentScript.src).origin;
  var CHOICES = [
    ["pm_card_visa", "Visa test card (pays)"],
    ["pm_card_chargeDeclined", "Declined test card"],
    ["pm_card_authenticationRequired", "3-D Secure test card"]
  ];
  function call(method, path, fields, key) {
    var body = new URLSearchParams(fields);
    body.set("key", key);
    var url = base + path + (method === "GET" ? "?" + body : "");
    return fetch(url, method === "GET" ? {} : { method: "POST", body: body }).then(function (r) {
      return r.json().then(function (json) { return { ok: r.ok, json: json }; });
    });
  }
  window.Stripe = function (key) {
    if (!/^pk_test_/.test(key)) throw new Error("stand-in Stripe.js: a pk_test_ key is needed");
    return {
      elements: function (options) {
        var state = { clientSecret: options.clientSecret, choice: "pm_card_visa" };
        return {
          _standIn: state,
          create: function (type) {
            if (type !== "payment") throw new Error("stand-in Stripe.js: only the payment element");
            return {
              mount: function (target) {
                var el = typeof target === "string" ? document.querySelector(target) : target;
                var fieldset = document.createElement("fieldset");
                fieldset.className = "stand-in-payment-element";
                var legend = document.createElement("legend");
                legend.textContent = "Card (Stripe stand-in)";
                fieldset.appendChild(legend);
                CHOICES.forEach(function (choice, i) {
                  var id = "stand-in-pm-" + i;
                  var input = document.createElement("input");
                  input.type = "radio"; input.name = "stand_in_pm"; input.id = id; input.value = choice[0];
                  input.checked = i === 0;
                  input.addEventListener("change", function () { state.choice = choice[0]; });
                  var label = document.createElement("label");
                  label.htmlFor = id; label.textContent = choice[1];
                  var row = document.createElement("div");
                  row.className = "choice"; // the store page's own radio rows (the real element is Stripe's iframe)
                  row.appendChild(input); row.appendChild(label);
                  fieldset.appendChild(row);
                });
                el.appendChild(fieldset);
              }
            };
          }
        };
      },
      handleNextAction: function (options) {
        var id = options.clientSecret.split("_secret_")[0];
        return new Promise(function (resolve) {
          var dialog = document.createElement("dialog");
          dialog.className = "stand-in-3ds";
          dialog.setAttribute("aria-labelledby", "stand-in-3ds-title");
          var title = document.createElement("h2");
          title.id = "stand-in-3ds-title";
          title.textContent = "Your bank (Stripe stand-in 3-D Secure)";
          dialog.appendChild(title);
          [["pass", "Complete authentication"], ["fail", "Fail authentication"]].forEach(function (choice) {
            var button = document.createElement("button");
            button.type = "button";
            button.textContent = choice[1];
            button.addEventListener("click", function () {
              dialog.close();
              dialog.remove();
              var body = new URLSearchParams({ result: choice[0] });
              fetch(base + "/__stand-in/authenticate/" + id, { method: "POST", body: body })
                .then(function (r) { return r.json(); })
                .then(function (after) {
                  if (after.status === "requires_payment_method")
                    return resolve({ error: { type: "card_error", code: "payment_intent_authentication_failure", message: "We are unable to authenticate your payment method." } });
                  resolve({ paymentIntent: after });
                }, function () { resolve({ error: { type: "api_connection_error", message: "Network error." } }); });
            });
            dialog.appendChild(button);
          });
          document.body.appendChild(dialog);
          dialog.showModal();
        });
      },
      confirmPayment: function (options) {
        var state = options.elements._standIn;
        var id = state.clientSecret.split("_secret_")[0];
        var fields = { client_secret: state.clientSecret, payment_method: state.choice };
        return call("POST", "/v1/payment_intents/" + id + "/confirm", fields, key).then(function (res) {
          if (!res.ok) return { error: res.json.error };
          var pi = res.json;
          if (pi.status !== "requires_action") return { paymentIntent: pi };
          // handleNextAction: the buyer passes the bank's challenge.
          return fetch(base + "/__stand-in/authenticate/" + id, { method: "POST", body: new URLSearchParams() })
            .then(function (r) { return r.json(); })
            .then(function (after) {
              if (after.status === "requires_payment_method")
                return { error: { type: "card_error", message: "We are unable to authenticate your payment method." } };
              return { paymentIntent: after };
            });
        });
      }
    };
  };
})();
`;

/** The stand-in's own secret key for calls Stripe.js makes with a publishable key. */
const STRIPE_JS_KEY = "sk_test_standInStripeJs";

function cors(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", "*");
  return new Response(response.body, { status: response.status, headers });
}

/**
 * What the browser asks of "Stripe": the script, and calls authorized as Stripe.js's are
 * (publishable key + the PaymentIntent's client_secret, form field `key`), which are passed
 * to the stand-in's API under a secret key. Everything is answered with CORS allowed, since
 * the store's page is another origin. Undefined: not Stripe.js's; the API answers it.
 */
export async function stripeJsRequest(
  request: Request,
  standIn: StripeStandIn,
  secretKey = STRIPE_JS_KEY,
): Promise<Response> {
  const url = new URL(request.url);
  if (request.method === "OPTIONS") {
    return cors(new Response(null, { status: 204, headers: { "access-control-allow-headers": "*" } }));
  }
  if (request.method === "GET" && url.pathname === "/v3") {
    return cors(new Response(STRIPE_JS_SOURCE, { headers: { "content-type": "text/javascript; charset=utf-8" } }));
  }
  const intent = /^\/v1\/payment_intents\/([^/]+)(?:\/confirm)?$/.exec(url.pathname);
  if (intent && !request.headers.has("authorization")) {
    const fields = new URLSearchParams(request.method === "GET" ? url.search : await request.text());
    const key = fields.get("key") ?? "";
    const pi = standIn.state.paymentIntents.get(decodeURIComponent(intent[1] ?? ""));
    if (/^pk_test_\w+$/.test(key) && pi && fields.get("client_secret") === pi.clientSecret) {
      fields.delete("key");
      const target = new URL(url.pathname, url.origin);
      if (request.method === "GET") target.search = fields.toString();
      const headers = { authorization: `Bearer ${secretKey}`, "content-type": "application/x-www-form-urlencoded" };
      const init = request.method === "GET" ? { headers } : { method: "POST", headers, body: fields.toString() };
      return cors(await standIn.handle(new Request(target, init)));
    }
    return cors(
      new Response(
        JSON.stringify({
          error: { type: "invalid_request_error", message: "Invalid publishable key or client_secret." },
        }),
        {
          status: 401,
          headers: { "content-type": "application/json" },
        },
      ),
    );
  }
  return cors(await standIn.handle(request));
}
