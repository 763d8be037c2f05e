/**
 * The confirmation email as a mail client reads it: the MIME the Mailgun sender uploads is
 * parsed back (headers, encoded-words, base64 parts) and its text and HTML must carry the
 * order's lines, totals, address and status link, survive non-ASCII, and escape markup.
 */
import { describe, expect, it } from "vitest";
import { mimeMessage } from "../../src/notify/mime-message";
import { orderConfirmation } from "../../src/notify/order-confirmation";
import type { OrderState } from "../../src/order/order-state";
import { parseMime } from "./email-mime";

const HOSTILE = 'Crème Tee <script>alert("x")</script>';

function order(overrides: Partial<OrderState> = {}): OrderState {
  return {
    id: "ord_abc123",
    checkout_id: "chk_1",
    permalink_url: "https://shop.example/orders/ord_abc123?token=a&b=c",
    currency: "EUR",
    line_items: [
      {
        id: "li_1",
        item: { id: "tee", title: HOSTILE, price: 1999 },
        quantity: { original: 2, total: 2, fulfilled: 0 },
        totals: [
          { type: "subtotal", amount: 3998 },
          { type: "total", amount: 3998 },
        ],
      },
      {
        id: "li_2",
        item: { id: "sock", title: "Wool Socks", price: 1250 },
        quantity: { original: 1, total: 1, fulfilled: 0 },
        totals: [{ type: "subtotal", amount: 1250 }],
      },
    ],
    totals: [
      { type: "subtotal", amount: 5248 },
      { type: "fulfillment", amount: 500 },
      { type: "tax", amount: 0 },
      { type: "total", amount: 5748 },
    ],
    expectations: [
      {
        id: "exp_1",
        destination: {
          first_name: "Zoë",
          last_name: "<b>O'Brien</b>",
          street_address: "1 Rue de Rivoli",
          address_locality: "Paris",
          postal_code: "75001",
          address_country: "FR",
        },
      },
    ],
    events: [],
    adjustments: [],
    owner: "https://platform.example/profile.json",
    created_at: 0,
    ...overrides,
  };
}

function sent(o: OrderState = order(), merchant = "Démo Outfitters", locale?: string) {
  const message = orderConfirmation(o, "sam@example.com", merchant, locale);
  const raw = mimeMessage(message, {
    from: "Demo Outfitters <orders@mg.shop.example>",
    messageId: "<order_confirmation.ord_abc123@mg.shop.example>",
  });
  return { raw, parsed: parseMime(raw) };
}

const part = (parsed: ReturnType<typeof parseMime>, type: string) => {
  const found = parsed.parts.find((p) => p.headers["content-type"]?.startsWith(type));
  if (!found) throw new Error(`no ${type} part`);
  return found;
};

describe("order confirmation email", () => {
  it("is a multipart/alternative message with the right envelope headers", () => {
    const { raw, parsed } = sent();
    expect(parsed.headers["content-type"]).toMatch(/^multipart\/alternative;/);
    expect(parsed.headers.from).toBe("Demo Outfitters <orders@mg.shop.example>");
    expect(parsed.headers.to).toBe("<sam@example.com>");
    expect(parsed.headers.subject).toBe("Démo Outfitters: order ord_abc123 confirmed");
    expect(parsed.headers["message-id"]).toBe("<order_confirmation.ord_abc123@mg.shop.example>");
    expect(parsed.headers["mime-version"]).toBe("1.0");
    expect(parsed.parts).toHaveLength(2);
    // On the wire: CRLF only, 7-bit clean (non-ASCII is inside base64 or encoded-words), short lines.
    expect(raw.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(raw).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    for (const line of raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
  });

  it("declares UTF-8 and base64 on both parts, so non-ASCII titles survive", () => {
    const { parsed } = sent();
    for (const type of ["text/plain", "text/html"]) {
      const p = part(parsed, type);
      expect(p.headers["content-type"]).toMatch(/charset=UTF-8/i);
      expect(p.headers["content-transfer-encoding"]).toBe("base64");
    }
    expect(part(parsed, "text/plain").body).toContain("Crème Tee");
    expect(part(parsed, "text/html").body).toContain("Crème Tee");
  });

  it("lists each line with its quantity and line total, the totals and the status link (text)", () => {
    const text = part(sent().parsed, "text/plain").body;
    expect(text).toContain(`- 2 × ${HOSTILE}: €39.98`);
    expect(text).toContain("- 1 × Wool Socks: €12.50");
    expect(text).toContain("Subtotal: €52.48");
    expect(text).toContain("Shipping: €5.00");
    expect(text).toContain("Total: €57.48");
    // A zero tax line says nothing useful to the buyer.
    expect(text).not.toContain("Tax");
    expect(text).toContain("Zoë <b>O'Brien</b>");
    expect(text).toContain("75001");
    expect(text).toContain("Order status and tracking: https://shop.example/orders/ord_abc123?token=a&b=c");
    expect(text.split("\r\n").length).toBeGreaterThan(5);
  });

  it("escapes every value in the HTML part and links the status page", () => {
    const html = part(sent().parsed, "text/html").body;
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>O");
    expect(html).toContain("Crème Tee &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("Zoë &lt;b&gt;O&#39;Brien&lt;/b&gt;");
    expect(html).toContain('<a href="https://shop.example/orders/ord_abc123?token=a&amp;b=c">');
    expect(html).toContain("€57.48");
    expect(html).toContain("€39.98");
  });

  it("formats amounts with the currency's own exponent (JPY has none, KWD three)", () => {
    const yen = part(sent(order({ currency: "JPY", totals: [{ type: "total", amount: 5748 }] })).parsed, "text/plain");
    expect(yen.body).toContain("Total: ¥5,748");
    const dinar = part(
      sent(order({ currency: "KWD", totals: [{ type: "total", amount: 5748 }] })).parsed,
      "text/plain",
    );
    expect(dinar.body).toMatch(/Total: KWD\s5\.748/);
  });

  it("formats amounts in the store's locale (MERCHANT_LOCALE), as its pages do", () => {
    const text = part(sent(order(), "Démo Outfitters", "fr-FR").parsed, "text/plain").body;
    expect(text).toContain("Total: 57,48\u00a0€");
  });

  it("leaves the address out for an order without a shipping destination", () => {
    const text = part(sent(order({ expectations: [] })).parsed, "text/plain").body;
    expect(text).not.toContain("Shipping to");
    expect(text).toContain("Total: €57.48");
  });
});
