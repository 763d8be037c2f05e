/**
 * The HTML rendering of an order confirmation. Every value is escaped: titles come from the
 * merchant's catalog feed and names and addresses from the buyer's agent, and either may
 * hold markup. Inline styles only, since mail clients drop <style> blocks and external CSS.
 */
import type { ConfirmationView } from "./order-confirmation";

export function confirmationHtml(view: ConfirmationView): string {
  const { t } = view;
  const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd"';
  const num = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:right"';
  const rows = view.lines
    .map((l) => `<tr><td ${cell}>${esc(l.title)}</td><td ${num}>${l.quantity}</td><td ${num}>${esc(l.total)}</td></tr>`)
    .join("\n");
  const totals = view.totals
    .map((t) => {
      const label = t.grand ? `<strong>${esc(t.label)}</strong>` : esc(t.label);
      const amount = t.grand ? `<strong>${esc(t.amount)}</strong>` : esc(t.amount);
      return `<tr><td colspan="2" ${num}>${label}</td><td ${num}>${amount}</td></tr>`;
    })
    .join("\n");
  const shipTo =
    view.shipTo.length > 0
      ? `<h2 style="font-size:16px">${esc(t("order.shippingTo"))}</h2>\n<p>${view.shipTo.map(esc).join("<br>")}</p>`
      : "";
  return `<!doctype html>
<html lang="${view.lang}"><head><meta charset="utf-8"><title>${esc(view.merchantName)}: ${esc(t("order.titleNumbered", { number: view.orderName }))}</title></head>
<body style="font-family:sans-serif;color:#222">
<p>${esc(t("email.thanks", { store: view.merchantName }))}</p>
<p>${esc(t("email.order"))} <strong>${esc(view.orderName)}</strong></p>
<table style="border-collapse:collapse">
<thead><tr><th ${cell}>${esc(t("cart.item"))}</th><th ${num}>${esc(t("email.qty"))}</th><th ${num}>${esc(t("totals.total"))}</th></tr></thead>
<tbody>
${rows}
${totals}
</tbody>
</table>
${shipTo}
<p><a href="${esc(view.statusUrl)}">${esc(t("email.statusLink"))}</a></p>
</body></html>`;
}

function esc(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}
