/** The checkout page's additions to the one stylesheet (styles.ts appends them). */
export const CHECKOUT_CSS = `
/* checkout page (src/pages/checkout-*.ts) */
ul.plain{list-style:none;padding:0;margin:0}
.notice ul.plain li+li{margin-top:.25rem}
.hint{display:block;font-weight:400;font-size:.875rem}
.choice{display:flex;gap:.5rem;align-items:flex-start;margin:.5rem 0}
.choice input{margin-top:.35rem}
.choice label{margin:0;font-weight:600}
.line{flex-wrap:nowrap;align-items:flex-start}
.line-title{font-weight:600}
.items input[type=number]{width:4.5rem;margin-bottom:.25rem}
.codes li{justify-content:space-between;margin:0 0 .5rem}
.codes form{display:flex;gap:.5rem;align-items:center;justify-content:space-between;width:100%}
.card .row input{flex:1;width:auto}
.grid.two{grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:0 1rem}
.test-cards{margin:0 0 .5rem}
.test-cards summary{cursor:pointer;font-weight:600}
button[disabled]{opacity:.6;cursor:not-allowed}
button.place{width:100%;font-size:1.1rem}
#checkout-form [hidden]{display:none}
.totals th{font-weight:400;border:none;padding:.15rem .25rem}
.totals tr.total th{font-weight:700;font-size:1.1rem;border-top:1px solid #ddd;padding-top:.5rem}
.order-id{font-family:ui-monospace,monospace;word-break:break-all}
.error-summary h2{font-size:1.1rem;margin:0 0 .5rem}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary:focus{outline:3px solid #b3261e;outline-offset:2px}
.field-error{color:#b3261e;font-weight:600;margin:.25rem 0}
[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.needed{font-size:.95rem;margin:0 0 .75rem}
.needed p{margin:0}
.needed ul{margin:.25rem 0 0;padding-left:1.25rem}
.pay-area{margin:0 0 1rem}
.pay-area .back{margin:.75rem 0 0;text-align:center}
.discounts{margin-top:.75rem;border-top:1px solid #ddd}
`;
