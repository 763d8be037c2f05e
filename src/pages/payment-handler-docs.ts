/**
 * The test payment handler's `spec` (an HTML page) and `schema` (JSON Schema of its
 * instrument and credential) at the URLs discovery names (src/payment/handlers.ts). The
 * schema builds on UCP's own card instrument and token credential, so a platform validating
 * against it also validates against the protocol's shapes.
 */
import { reverseDomain, TEST_HANDLER_ID } from "../payment/handlers";
import { TEST_TOKENS } from "../payment/processor";
import { UCP_VERSION } from "../ucp/capabilities";
import type { PageContext } from "./context";
import { html } from "./html";
import { renderPage } from "./layout";

const UCP_TYPES = "https://ucp.dev/schemas/shopping/types";

/** The card numbers the checkout page's test card form turns into tokens. */
const TEST_CARDS = [
  ["4242 4242 4242 4242", TEST_TOKENS.success, "Paid: the order is placed."],
  ["4000 0000 0000 0002", TEST_TOKENS.decline, "Declined (payment_failed): the checkout stays open for another card."],
  [
    "4000 0027 6000 3184",
    TEST_TOKENS.requiresAction,
    "Asks for 3-D Secure verification, then pays once the buyer passes it.",
  ],
] as const;

export function testHandlerSchemaDocument(origin: string) {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `${origin}/ucp/payment/test/schema.json`,
    title: "Test payment handler instrument",
    description: `A card instrument for the store's test payment handler (${TEST_HANDLER_ID}): no card data, only a test token. Test mode only; no money moves.`,
    allOf: [
      { $ref: `${UCP_TYPES}/card_payment_instrument.json` },
      {
        type: "object",
        required: ["handler_id", "type", "credential"],
        properties: {
          handler_id: {
            const: TEST_HANDLER_ID,
            description: "The handler instance advertised in ucp.payment_handlers.",
          },
          type: { const: "card" },
          credential: { $ref: "#/$defs/credential" },
        },
      },
    ],
    $defs: {
      credential: {
        title: "Test token credential",
        description: `${TEST_TOKENS.success} is captured, ${TEST_TOKENS.decline} is declined, ${TEST_TOKENS.requiresAction} asks for 3-D Secure; any other token is declined.`,
        allOf: [
          { $ref: `${UCP_TYPES}/token_credential.json` },
          {
            type: "object",
            properties: {
              type: { const: "token" },
              token: {
                type: "string",
                minLength: 1,
                examples: [TEST_TOKENS.success, TEST_TOKENS.decline, TEST_TOKENS.requiresAction],
              },
            },
          },
        ],
      },
    },
  };
}

export async function testHandlerSchema(ctx: PageContext): Promise<Response> {
  return new Response(JSON.stringify(testHandlerSchemaDocument(ctx.config.origin), null, 2), {
    headers: {
      "content-type": "application/schema+json",
      "cache-control": "public, max-age=3600",
      // A platform's validator may fetch it from a browser context.
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
    },
  });
}

export async function testHandlerSpec(ctx: PageContext): Promise<Response> {
  const origin = ctx.config.origin;
  const example = {
    id: "instr_1",
    handler_id: TEST_HANDLER_ID,
    type: "card",
    selected: true,
    display: { brand: "visa", last_digits: "4242" },
    credential: { type: "token", token: TEST_TOKENS.success },
  };
  return renderPage(ctx, {
    title: "Test payment handler",
    body: html`<h1>Test payment handler</h1>
<p class="notice${ctx.config.paymentTestMode ? "" : " error"}">${
      ctx.config.paymentTestMode
        ? "This store is in test mode: this handler is offered, and no money moves."
        : "This store is not in test mode: this handler is not offered and its tokens are refused."
    }</p>
<div class="card fit">
<p>A payment handler for trying out checkouts end to end without a payment provider. It exists
only in test mode: no card data is collected or sent anywhere, and nothing is charged.</p>
<table><tbody>
<tr><th scope="row">Handler name</th><td><code>${reverseDomain(origin)}.test_payment</code></td></tr>
<tr><th scope="row">Handler id (<code>handler_id</code>)</th><td><code>${TEST_HANDLER_ID}</code></td></tr>
<tr><th scope="row">Version</th><td><code>${UCP_VERSION}</code></td></tr>
<tr><th scope="row">Instrument type</th><td><code>card</code></td></tr>
<tr><th scope="row">Credential</th><td><code>{"type": "token", "token": "…"}</code></td></tr>
<tr><th scope="row">Schema</th><td><a href="/ucp/payment/test/schema.json">JSON Schema of the instrument and credential</a></td></tr>
</tbody></table>
</div>
<h2>Instrument</h2>
<p>Send it in <code>payment.instruments</code> of <code>complete_checkout</code> (or
<code>update_checkout</code>):</p>
<pre class="card fit"><code>${JSON.stringify(example, null, 2)}</code></pre>
<h2>Test tokens</h2>
<div class="card fit"><table>
<thead><tr><th scope="col">Token</th><th scope="col">Outcome</th></tr></thead>
<tbody>
<tr><td><code>${TEST_TOKENS.success}</code></td><td>Captured: the checkout completes and the order is placed.</td></tr>
<tr><td><code>${TEST_TOKENS.decline}</code></td><td>Declined: <code>payment_failed</code>, recoverable; the checkout stays open.</td></tr>
<tr><td><code>${TEST_TOKENS.requiresAction}</code></td><td>3-D Secure: <code>requires_escalation</code> with the message code <code>requires_3ds</code>.</td></tr>
<tr><td>any other token</td><td>Declined.</td></tr>
</tbody></table></div>
<h2>Test cards on the checkout page</h2>
<p>A buyer paying on the store's checkout page types a card number; in test mode the page
turns these numbers into the tokens above (any future expiry date and any security code):</p>
<div class="card fit"><table>
<thead><tr><th scope="col">Card number</th><th scope="col">Token</th><th scope="col">Outcome</th></tr></thead>
<tbody>${TEST_CARDS.map(
      ([number, token, outcome]) =>
        html`<tr><td><code>${number}</code></td><td><code>${token}</code></td><td>${outcome}</td></tr>`,
    )}</tbody></table></div>
<h2>How 3-D Secure escalates</h2>
<ol>
<li><code>complete_checkout</code> with <code>${TEST_TOKENS.requiresAction}</code> answers the checkout with
<code>status: "requires_escalation"</code>, an error message with code <code>requires_3ds</code>
(severity <code>requires_buyer_input</code>) and the checkout's <code>continue_url</code>. Nothing is charged yet.</li>
<li>The agent hands the buyer <code>continue_url</code>. The checkout page shows the verification step
(<code>/checkout/&lt;token&gt;/verify</code>), where the buyer passes or fails the challenge.</li>
<li>Passed: <code>get_checkout</code> shows the checkout back at <code>ready_for_complete</code> and the
platform retries <code>complete_checkout</code>, which now captures (or, when the buyer started the payment
on the checkout page, the page completes it and <code>get_checkout</code> shows <code>completed</code> with its order).
Failed: the checkout stays open; pay with another instrument.</li>
</ol>`,
  });
}
