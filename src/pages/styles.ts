/**
 * The pages' one stylesheet, inlined (no extra request on a phone) under the response's CSP
 * nonce. Mobile first: one column, wider layouts from 48rem. `--accent` is the merchant's
 * colour; `--on-accent` is black or white, whichever reads on it (WCAG contrast).
 */
import { CHECKOUT_CSS } from "./checkout-styles";

export const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f6f4}
a{color:var(--accent-text)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:0}
header.site{background:#fff;border-bottom:1px solid #ddd}
header.site .bar{max-width:64rem;margin:0 auto;padding:.75rem 1rem;display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
header.site .brand{font-weight:700;font-size:1.15rem;color:#1a1a1a;text-decoration:none;display:flex;gap:.5rem;align-items:center}
header.site .brand img{height:2rem;width:auto}
header.site nav{margin-left:auto;display:flex;gap:1rem}
header.site nav .count{display:inline-block;min-width:1.4em;padding:0 .35em;border-radius:1em;background:#1a1a1a;color:#fff;font-size:.85em;text-align:center}
main{max-width:64rem;margin:0 auto;padding:1rem}
footer.site{max-width:64rem;margin:2rem auto 0;padding:1rem;color:#555;font-size:.875rem}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:#fff;border:1px solid #ddd;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.muted{color:#555}
.notice{border-left:4px solid var(--accent);background:#fff;padding:.75rem 1rem;margin:0 0 1rem}
.notice.error{border-color:#b3261e}
.notice.ok{border-color:#1e7b34}
.status{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#eee;font-size:.875rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{font:inherit;width:100%;padding:.6rem .7rem;border:1px solid #767676;border-radius:.375rem;background:#fff;color:#1a1a1a;min-height:2.75rem}
input[type=number]{width:5.5rem}
input[type=radio],input[type=checkbox]{width:auto;min-height:0}
fieldset{border:1px solid #ddd;border-radius:.5rem;padding:.5rem 1rem 1rem;margin:0 0 1rem}
legend{font-weight:700;padding:0 .25rem}
button,.button{font:inherit;font-weight:600;display:inline-block;min-height:2.75rem;padding:.6rem 1.1rem;border-radius:.375rem;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer;text-decoration:none;text-align:center}
button.secondary,.button.secondary{background:#fff;color:var(--accent-text)}
button.link{background:none;border:none;color:var(--accent-text);text-decoration:underline;padding:.25rem;min-height:0}
.row{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr))}
.grid .card{margin:0}
.thumb{width:4rem;height:4rem;object-fit:cover;border-radius:.375rem;background:#eee;flex:none}
.product-img{width:100%;aspect-ratio:1;object-fit:cover;border-radius:.375rem;background:#eee}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #eee;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
.totals td{border:none;padding:.15rem .25rem}
.totals tr.total td{font-weight:700;font-size:1.1rem;border-top:1px solid #ddd;padding-top:.5rem}
.totals tr.included td,.totals tr.included th{color:#555;font-size:.9rem;font-weight:400}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
/* storefront, product, cart and order pages */
ul.grid,ul.row{list-style:none;padding:0;margin:0 0 1rem}
.product-card h3{font-size:1rem;margin:.5rem 0 .25rem}
.price{font-weight:700;margin:.25rem 0}
.stock{margin:.25rem 0;font-size:.875rem}
.stock.out{font-weight:700;color:#b3261e}
label.inline{display:inline;margin:0;font-weight:400}
.search .row{flex-wrap:nowrap;margin-top:.5rem}
.search input[type=search]{flex:1;min-width:0}
.search .row input[type=checkbox]{flex:none;width:1.25rem;height:1.25rem;margin:0}
.pager{margin:1rem 0}
.gallery{margin-top:.5rem}
dl.options dt{font-weight:600}
dl.options dd{margin:0 0 .5rem}
.cart-lines input[type=number]{width:4.5rem}
.events li{margin:0 0 .75rem}
img.product-img{height:auto}
.fit td,.fit code,.fit strong,.fit li{overflow-wrap:anywhere}
pre.fit{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.875rem}
${CHECKOUT_CSS}
@media (min-width:48rem){
  main{padding:1.5rem}
  .split{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1.5rem;align-items:start}
  h1{font-size:1.85rem}
}
`;

/** Relative luminance (WCAG 2.x) of #rgb/#rrggbb. */
function luminance(hex: string): number {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join("")}` : hex;
  const channel = (i: number) => {
    const v = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * The custom properties for one accent colour: text on the accent is whichever of black and
 * white contrasts more, and links use the accent only where it reads on white (4.5:1),
 * otherwise a dark neutral, so a pale brand colour never makes text unreadable.
 */
export function accentCss(accent: string): string {
  const l = luminance(accent);
  const onAccent = contrast(l, 1) >= contrast(l, 0) ? "#fff" : "#000";
  const accentText = contrast(l, 1) >= 4.5 ? accent : "#1a1a1a";
  return `:root{--accent:${accent};--on-accent:${onAccent};--accent-text:${accentText}}`;
}
