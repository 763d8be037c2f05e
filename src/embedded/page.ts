/**
 * The checkout page as an Embedded Checkout: the page the store renders anyway (A's one form,
 * src/pages/checkout-view.ts), rewritten on its way out (HTMLRewriter) so this module never
 * reaches into its markup. Added: the session's marker (origin, version, accepted delegations,
 * the page's proof), the checkout in the session's version for ec.start and the change
 * notifications, a panel per delegated action, and the ECP script. The page's own UI for what
 * is delegated is hidden (embedded.md §Binding Requirements: MUST NOT show its own UI).
 */
import { type Translate, translator } from "../i18n/translate";
import type { ToolPayload } from "../pages/buyer-tools";
import type { PageContext } from "../pages/context";
import { html, type SafeHtml, trustedHtml } from "../pages/html";
import { formatMoney } from "../pages/money";
import { CURRENT_VERSION } from "../ucp/versions";
import { ecCheckout, scriptJson } from "./checkout-json";
import { EC_SCRIPT } from "./page-script";
import type { EmbeddedSession } from "./session";

export interface EmbeddedPage {
  readonly session: EmbeddedSession;
  /** The one origin that may frame the page and receive its messages (frame-policy.ts). */
  readonly origin: string;
  readonly proof: string;
  /** Names the session in window.name (proof.ts embeddedFrameKey). */
  readonly frameKey: string;
  /** get_checkout's payload, as the page rendered it. */
  readonly payload: ToolPayload;
}

const OPEN = new Set(["incomplete", "requires_escalation", "ready_for_complete"]);

/** What the page hides for each delegation: the page's own sections and its own Pay button. */
const HIDDEN: Readonly<Record<string, string>> = {
  "payment.credential": '#payment-section,#pay-button[value="pay"],#stripe-card',
  "fulfillment.address_change": "#address-section",
};

// embedded.md §Navigation Constraints: no store navigation inside the host's window.
const PANEL_CSS = `header.site nav{display:none}
.ec-panel .ec-row{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;justify-content:space-between}
.ec-panel .ec-value{margin:0}
.ec-panel button.place{width:100%;margin-top:.75rem}`;

export function embedCheckout(ctx: PageContext, response: Response, page: EmbeddedPage): Response {
  const { session } = page;
  const status = typeof page.payload.status === "string" ? page.payload.status : "";
  const open = OPEN.has(status);
  const delegated = new Set<string>(session.version && open ? session.delegate : []);
  const hidden = [...delegated].flatMap((d) => (HIDDEN[d] ? [HIDDEN[d]] : []));
  const css =
    (hidden.length > 0 ? `${hidden.join(",")}{display:none!important}` : "") +
    (session.colorScheme === "light" ? ":root{color-scheme:light}" : "") +
    PANEL_CSS;
  const t = translator(ctx);
  const panels = {
    address: delegated.has("fulfillment.address_change") ? addressPanel(t, page.payload) : undefined,
    payment: delegated.has("payment.credential") ? paymentPanel(ctx, t, page, delegated) : undefined,
  };
  const placed = { address: false, payment: false };
  const checkout = session.version ? ecCheckout(page.payload, session.version, ctx.config) : {};
  const tail = html`<div id="ucp-ec" hidden data-origin="${page.origin}" data-version="${session.version ?? ""}" data-requested-version="${session.requestedVersion}" data-error-version="${CURRENT_VERSION}" data-delegate="${[...delegated].join(",")}" data-proof="${page.proof}" data-frame="${page.frameKey}"${scriptWords(t)}></div>
<script type="application/json" id="ucp-ec-checkout">${trustedHtml(scriptJson(checkout))}</script>
<script nonce="${ctx.nonce}">${trustedHtml(EC_SCRIPT)}</script>`;
  const rewriter = new HTMLRewriter()
    .on("head", {
      element(head) {
        head.append(html`<style nonce="${ctx.nonce}">${trustedHtml(css)}</style>`.value, { html: true });
      },
    })
    .on("#address-section", {
      element(section) {
        if (!panels.address) return;
        section.before(panels.address.value, { html: true });
        placed.address = true;
      },
    })
    .on("#payment-section", {
      element(section) {
        if (!panels.payment) return;
        section.before(panels.payment.value, { html: true });
        placed.payment = true;
      },
    })
    .on("main", {
      element(main) {
        main.onEndTag((end) => {
          // A page whose sections moved still shows what the host took over, at the end.
          if (panels.address && !placed.address) end.before(panels.address.value, { html: true });
          if (panels.payment && !placed.payment) end.before(panels.payment.value, { html: true });
        });
      },
    })
    .on("body", {
      element(body) {
        body.append(tail.value, { html: true });
      },
    });
  return rewriter.transform(response);
}

/** The script's words for the buyer, as data-msg-* on the marker (page-script.ts `words`). */
function scriptWords(t: Translate): SafeHtml {
  return html` data-msg-chosen="${t("embedded.chosenInApp")}" data-msg-confirm="${t("embedded.confirmInApp")}" data-msg-not-confirmed="${t("embedded.notConfirmed")}" data-msg-no-payment="${t("embedded.noPayment")}" data-msg-placing="${t("embedded.placing")}" data-msg-not-placed="${t("embedded.notPlaced")}" data-msg-updating-address="${t("embedded.updatingAddress")}" data-msg-bad-address="${t("embedded.badAddress")}"`;
}

function paymentPanel(ctx: PageContext, t: Translate, page: EmbeddedPage, delegated: ReadonlySet<string>): SafeHtml {
  const totals = Array.isArray(page.payload.totals) ? (page.payload.totals as Array<Record<string, unknown>>) : [];
  const total = totals.find((t) => t.type === "total")?.amount;
  const currency = typeof page.payload.currency === "string" ? page.payload.currency : "";
  const amount =
    typeof total === "number" && currency ? formatMoney(total, currency, ctx.config.storefront.locale) : "";
  return html`<section class="card ec-panel" id="ec-payment" aria-labelledby="ec-payment-h">
<h2 id="ec-payment-h">${t("checkout.payment")}</h2>
${
  delegated.has("payment.instruments_change")
    ? html`<div class="ec-row"><p class="ec-value" id="ec-instrument">${t("embedded.chosenInApp")}</p>
<button type="button" class="secondary" id="ec-instruments" disabled>${t("embedded.changeMethod")}</button></div>`
    : html`<p class="muted">${t("embedded.youConfirmInApp")}</p>`
}
<button type="button" class="place" id="ec-pay" disabled>${amount ? `${t("checkout.pay")} ${amount}` : t("checkout.pay")}</button>
<p id="ec-status" role="status" aria-live="polite"></p>
</section>`;
}

function addressPanel(t: Translate, payload: ToolPayload): SafeHtml {
  const address = shippingAddress(payload);
  return html`<section class="card ec-panel" id="ec-address-panel" aria-labelledby="ec-address-h">
<h2 id="ec-address-h">${t("checkout.address")}</h2>
<div class="ec-row"><p class="ec-value" id="ec-address-text">${address ?? t("embedded.noAddress")}</p>
<button type="button" class="secondary" id="ec-address" disabled>${address ? t("embedded.changeAddress") : t("embedded.addAddress")}</button></div>
<p id="ec-address-status" role="status" aria-live="polite"></p>
</section>`;
}

function shippingAddress(payload: ToolPayload): string | undefined {
  const fulfillment = payload.fulfillment as { methods?: Array<Record<string, unknown>> } | undefined;
  const method = fulfillment?.methods?.find((m) => m.type === "shipping");
  const destinations = Array.isArray(method?.destinations)
    ? (method.destinations as Array<Record<string, unknown>>)
    : [];
  const chosen = destinations.find((d) => d.id === method?.selected_destination_id) ?? destinations[0];
  if (!chosen) return undefined;
  const parts = ["street_address", "address_locality", "address_region", "postal_code", "address_country"]
    .map((k) => chosen[k])
    .filter((v): v is string => typeof v === "string" && v !== "");
  return parts.length > 0 ? parts.join(", ") : undefined;
}
