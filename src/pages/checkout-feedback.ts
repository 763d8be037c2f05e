/**
 * What the checkout page says about the form: errors (after a submit, or the store's own
 * findings such as out of stock) in a summary at the top that links to each field, and next
 * to the field (aria-describedby, aria-invalid); what is still needed before paying as a
 * neutral list by the button, never as red errors before the buyer has typed anything.
 */
import type { Translate } from "../i18n/translate";
import type { PageCheckout, PageMessage } from "./checkout-data";
import { ADDRESS, CODE_FIELD, CONTACT, COUNTRY, quantityField } from "./checkout-fields";
import type { DiscountFacts } from "./discount-reasons";
import { html, type SafeHtml } from "./html";
import { messageText } from "./tool-messages";

export interface PageError {
  readonly text: string;
  /** The input (id) it is about: the summary links there and the field names it. */
  readonly input?: string;
}

export interface Feedback {
  readonly errors: readonly PageError[];
  /** Good news and information (saved, code applied). */
  readonly notices: readonly string[];
  /** What the store still needs before the order can be paid (shown by the button). */
  readonly needed: readonly string[];
  /** A submit made this page: focus moves to the summary. */
  readonly submitted: boolean;
  /** The store's language, for the words the summary and the fields add. */
  readonly t: Translate;
}

/** The store's "this is still missing" messages: needs while nobody asked, errors after Continue. */
const NEEDS = new Set(["missing", "field_required", "fulfillment_required"]);

/** The input a checkout message is about, from its JSONPath (`$.buyer.email` → the email field). */
export function inputFor(message: PageMessage, checkout: PageCheckout, cardInput?: string): string | undefined {
  const path = message.path ?? "";
  const line = /^\$\.line_items\[(\d+)\]/.exec(path);
  if (line) {
    const id = checkout.line_items[Number(line[1])]?.id;
    return id ? quantityField(id) : undefined;
  }
  const buyer = /^\$\.buyer\.(\w+)/.exec(path);
  if (buyer) return CONTACT.find((f) => f.key === buyer[1])?.id;
  const destination = /^\$\.fulfillment\.methods\[\d+\]\.destinations\[\d+\](?:\.(\w+))?/.exec(path);
  if (destination) {
    const named = [...ADDRESS, COUNTRY].find((f) => f.key === destination[1]);
    return named?.id ?? ADDRESS[2]?.id;
  }
  if (/^\$\.fulfillment\.methods\[\d+\]\.groups/.test(path)) return "shipping-options";
  if (path.startsWith("$.fulfillment") || message.code === "fulfillment_required") return ADDRESS[2]?.id;
  if (path.startsWith("$.discounts")) return CODE_FIELD;
  if (path.startsWith("$.payment") || message.code === "payment_failed") return cardInput;
  return undefined;
}

export interface FeedbackInput {
  readonly t: Translate;
  readonly checkout: PageCheckout;
  /** The page's own checks of what was sent (first, in the form's order). */
  readonly pageErrors?: readonly PageError[];
  readonly notices?: readonly string[];
  /** The buyer pressed Continue or Pay: what is missing is an error now. */
  readonly demand?: boolean;
  readonly submitted?: boolean;
  /** Where payment messages point (the card number field, when the page has one). */
  readonly cardInput?: string;
  /** To name why a discount code was not applied in the store's words (discount-reasons.ts). */
  readonly discounts?: DiscountFacts;
}

export function buildFeedback(input: FeedbackInput): Feedback {
  const errors: PageError[] = [...(input.pageErrors ?? [])];
  const notices = [...(input.notices ?? [])];
  const needed: string[] = [];
  const flagged = new Set(errors.flatMap((e) => (e.input ? [e.input] : [])));
  for (const message of input.checkout.messages ?? []) {
    // The closed states' own note (expired) is said by the page itself, not repeated.
    if (!message.content || message.code === "expired") continue;
    const where = inputFor(message, input.checkout, input.cardInput);
    const text = messageText(input.t, message, input.checkout.line_items, input.discounts);
    if (NEEDS.has(message.code ?? "") && !input.demand) {
      needed.push(text);
      continue;
    }
    if (message.type === "error" || message.type === "warning") {
      // The page already said what is wrong with this field, in words about the field.
      if (where && flagged.has(where) && NEEDS.has(message.code ?? "")) continue;
      errors.push({ text, ...(where ? { input: where } : {}) });
    } else notices.push(text);
  }
  return { errors, notices, needed, submitted: input.submitted ?? false, t: input.t };
}

function errorId(input: string): string {
  return `err-${input}`;
}

/** ` aria-invalid aria-describedby` for a field with errors (and its hint, when given). */
export function fieldAttrs(feedback: Feedback | undefined, input: string, hintId?: string): SafeHtml {
  const bad = feedback?.errors.some((e) => e.input === input) ?? false;
  const ids = [...(bad ? [errorId(input)] : []), ...(hintId ? [hintId] : [])].join(" ");
  return html`${bad ? html` aria-invalid="true"` : ""}${ids ? html` aria-describedby="${ids}"` : ""}`;
}

/** The field's errors, right above it (nothing when it has none). */
export function fieldError(feedback: Feedback | undefined, input: string): SafeHtml | "" {
  const mine = feedback?.errors.filter((e) => e.input === input) ?? [];
  if (mine.length === 0) return "";
  return html`<p class="field-error" id="${errorId(input)}"><span class="visually-hidden">${feedback?.t("checkout.errorPrefix") ?? ""} </span>${mine.map((e, i) => html`${i > 0 ? " " : ""}${e.text}`)}</p>`;
}

/**
 * The summary at the top: every error, each a link to its field. After a submit it takes the
 * focus (autofocus, and checkout-script.ts where autofocus is not honoured) and is announced.
 */
export function errorSummary(feedback: Feedback): SafeHtml | "" {
  if (feedback.errors.length === 0) return "";
  return html`<div class="notice error error-summary" id="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title"${feedback.submitted ? html` autofocus` : ""}>
<h2 id="error-summary-title">${feedback.t("checkout.checkFollowing")}</h2>
<ul>${feedback.errors.map((e) => html`<li>${e.input ? html`<a href="#${e.input}">${e.text}</a>` : e.text}</li>`)}</ul>
</div>`;
}

export function noticeBox(feedback: Feedback): SafeHtml | "" {
  if (feedback.notices.length === 0) return "";
  return html`<div class="notice ok" role="status"><ul class="plain">${feedback.notices.map((n) => html`<li>${n}</li>`)}</ul></div>`;
}
