/**
 * A tool's message (UCP `messages[]`) as a buyer page shows it. The `content` is English, for
 * agents (docs/decisions/pages.md); the pages say the outcomes they can name from `code` and `path`
 * in the store's language, and show the tool's words for the rest.
 */
import type { Translate } from "../i18n/translate";
import { type DiscountFacts, discountReason } from "./discount-reasons";

export interface ToolMessage {
  readonly code?: string;
  readonly content?: string;
  readonly path?: string;
}

interface Line {
  readonly item?: { readonly title?: string };
  readonly quantity?: number;
}

/** The line a `$.line_items[i]…` path names, in the payload the message came with. */
function lineAt(path: string | undefined, lines: readonly Line[]): Line | undefined {
  const index = /^\$\.line_items\[(\d+)\]/.exec(path ?? "")?.[1];
  return index === undefined ? undefined : lines[Number(index)];
}

/** `discounts`: what the page knows of the codes, to name why one was not applied (discount-reasons.ts). */
export function messageText(
  t: Translate,
  message: ToolMessage,
  lines: readonly Line[] = [],
  discounts?: DiscountFacts,
): string {
  if (discounts && message.code?.startsWith("discount_code_")) {
    const reason = discountReason(t, message, discounts);
    if (reason) return reason;
  }
  const line = lineAt(message.path, lines);
  const item = line?.item?.title;
  switch (message.code) {
    case "test_mode":
      return t("message.testMode");
    case "quantity_adjusted":
      if (item && typeof line?.quantity === "number")
        return t("message.quantityAdjusted", { item, count: line.quantity });
      break;
    case "out_of_stock":
      if (item) return t("message.outOfStock", { item });
      break;
  }
  return message.content ?? "";
}
