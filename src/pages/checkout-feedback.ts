/**
 * Where each message goes on the checkout page: the checkout's own messages by their JSONPath
 * (`$.buyer.email` → the email field of the contact form), the form outcome's notices by
 * their section. A field with an error names it (aria-describedby, aria-invalid); a section
 * with an error announces it (role=alert).
 */
import type { PageMessage } from "./checkout-data";
import type { Notice, Section } from "./checkout-notices";
import { html, type SafeHtml } from "./html";

export interface FeedbackItem {
  readonly id: string;
  readonly tone: "ok" | "error" | "info";
  readonly text: string;
  readonly field?: string;
  /** Index into line_items, for messages about one line. */
  readonly line?: number;
}

export type Feedback = Readonly<Record<Section, readonly FeedbackItem[]>>;

interface Placement {
  readonly section: Section;
  readonly field?: string;
  readonly line?: number;
}

const BY_CODE: Readonly<Record<string, Section>> = {
  fulfillment_required: "address",
  requires_3ds: "payment",
  payments_not_configured: "payment",
  payment_failed: "payment",
};

/** The section (and field) a checkout message is about, from its path. */
export function placeMessage(message: PageMessage): Placement {
  const path = message.path ?? "";
  const line = /^\$\.line_items\[(\d+)\]/.exec(path);
  if (line) return { section: "items", line: Number(line[1]) };
  const buyer = /^\$\.buyer\.(\w+)/.exec(path);
  if (buyer) return { section: "contact", field: buyer[1] as string };
  const destination = /^\$\.fulfillment\.methods\[\d+\]\.destinations\[\d+\](?:\.(\w+))?/.exec(path);
  if (destination) return destination[1] ? { section: "address", field: destination[1] } : { section: "address" };
  if (/^\$\.fulfillment\.methods\[\d+\]\.groups/.test(path)) return { section: "shipping", field: "option" };
  if (path.startsWith("$.fulfillment")) return { section: "address" };
  if (path.startsWith("$.discounts")) return { section: "discounts" };
  if (path.startsWith("$.payment")) return { section: "payment" };
  if (path.startsWith("$.line_items")) return { section: "items" };
  return { section: (message.code && BY_CODE[message.code]) || "top" };
}

function toneOf(message: PageMessage): FeedbackItem["tone"] {
  return message.type === "error" || message.type === "warning" ? "error" : "info";
}

export function buildFeedback(messages: readonly PageMessage[], notices: readonly Notice[]): Feedback {
  const out: Record<Section, FeedbackItem[]> = {
    top: [],
    items: [],
    contact: [],
    address: [],
    shipping: [],
    discounts: [],
    payment: [],
  };
  const add = (section: Section, item: Omit<FeedbackItem, "id">) => {
    const list = out[section];
    list.push({ ...item, id: `fb-${section}-${list.length + 1}` });
  };
  for (const notice of notices) {
    add(notice.section, { tone: notice.tone, text: notice.text, ...(notice.field ? { field: notice.field } : {}) });
  }
  for (const message of messages) {
    if (!message.content) continue;
    const where = placeMessage(message);
    add(where.section, {
      tone: toneOf(message),
      text: message.content,
      ...(where.field ? { field: where.field } : {}),
      ...(where.line !== undefined ? { line: where.line } : {}),
    });
  }
  return out;
}

/** A section's notices, errors first; nothing when there are none. */
export function renderFeedback(items: readonly FeedbackItem[]): SafeHtml | "" {
  if (items.length === 0) return "";
  const errors = items.filter((i) => i.tone === "error");
  const others = items.filter((i) => i.tone !== "error");
  const box = (list: readonly FeedbackItem[], cls: string, role: string) =>
    list.length === 0
      ? ""
      : html`<div class="notice ${cls}" role="${role}"><ul class="plain">${list.map(
          (i) => html`<li id="${i.id}">${i.tone === "error" ? html`<strong>Error:</strong> ` : ""}${i.text}</li>`,
        )}</ul></div>`;
  const okOnly = others.every((i) => i.tone === "ok");
  return html`${box(errors, "error", "alert")}${box(others, okOnly ? "ok" : "", "status")}`;
}

/** ` aria-invalid aria-describedby` for a field with errors (and its hint, when given). */
export function fieldAttrs(items: readonly FeedbackItem[], field: string, hintId?: string): SafeHtml {
  const errors = items.filter((i) => i.field === field && i.tone === "error").map((i) => i.id);
  const ids = [...errors, ...(hintId ? [hintId] : [])].join(" ");
  return html`${errors.length > 0 ? html` aria-invalid="true"` : ""}${ids ? html` aria-describedby="${ids}"` : ""}`;
}
