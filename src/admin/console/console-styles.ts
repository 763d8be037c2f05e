/**
 * The console's one stylesheet, inlined under the response's CSP nonce (no extra request, no
 * style-src 'self'). Plain and dense: tables of orders and products on a desktop first, still
 * one readable column on a phone. Colours meet WCAG AA contrast on their backgrounds.
 */
export const CONSOLE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
a{color:#0b5cad}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:0}
header.console{background:#1b1f24;color:#fff}
header.console .bar{max-width:80rem;margin:0 auto;padding:.5rem 1rem;display:flex;gap:.5rem 1rem;align-items:center;flex-wrap:wrap}
header.console .brand{font-weight:700;color:#fff;text-decoration:none;margin-right:auto}
header.console nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0}
header.console nav a{color:#fff;text-decoration:none;padding:.4rem .6rem;border-radius:.25rem;display:inline-block}
header.console nav a[aria-current=page]{background:#3a414b}
header.console nav a:hover{text-decoration:underline}
header.console form{margin:0}
header.console button.link{color:#fff}
.mode{font-size:.8rem;font-weight:700;padding:.15rem .5rem;border-radius:999px}
.mode.test{background:#ffd166;color:#1b1f24}
.mode.live{background:#2e7d32;color:#fff}
main{max-width:80rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;line-height:1.25;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
.card>h2:first-child{margin-top:0}
.card{background:#fff;border:1px solid #d8dce1;border-radius:.5rem;padding:1rem;margin:0 0 1rem;overflow-x:auto}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr))}
.grid>.card{margin:0}
.muted{color:#545b64}
.notice{border-left:4px solid #0b5cad;background:#fff;padding:.75rem 1rem;margin:0 0 1rem}
.notice.error{border-color:#b3261e}
.notice.ok{border-color:#2e7d32}
.status{display:inline-block;padding:.05rem .5rem;border-radius:999px;background:#e8eaed;font-size:.85rem;white-space:nowrap}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e3e6ea;vertical-align:top}
th{font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}
address{font-style:normal}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select,textarea{font:inherit;width:100%;max-width:32rem;padding:.5rem .6rem;border:1px solid #6b7280;border-radius:.375rem;background:#fff;color:#1b1f24;min-height:2.5rem}
input[type=radio],input[type=checkbox]{width:auto;min-height:0}
fieldset{border:1px solid #d8dce1;border-radius:.5rem;padding:.5rem 1rem 1rem;margin:0 0 1rem}
legend{font-weight:700;padding:0 .25rem}
button,.button{font:inherit;font-weight:600;display:inline-block;min-height:2.5rem;padding:.5rem 1rem;border-radius:.375rem;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#0b5cad}
button.danger{background:#b3261e;border-color:#b3261e}
button.link{background:none;border:none;color:#0b5cad;text-decoration:underline;padding:.25rem;min-height:0}
.row{display:flex;gap:.75rem;align-items:end;flex-wrap:wrap}
.figures{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));margin:0 0 1rem}
.figure{background:#fff;border:1px solid #d8dce1;border-radius:.5rem;padding:.75rem 1rem}
.figure{margin:0}
.figure dt{color:#545b64;font-size:.85rem}
.figure dd{margin:0;font-size:1.3rem;font-weight:700;font-variant-numeric:tabular-nums}
svg.chart{width:100%;height:auto;max-width:36rem;display:block}
figure{margin:0}
figcaption{font-weight:600;margin:0 0 .25rem}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
svg.chart text{font:12px system-ui,sans-serif;fill:#1b1f24}
svg.chart .bar{fill:#0b5cad}
svg.chart .bar.alt{fill:#7b5ea7}
svg.chart .axis{stroke:#6b7280;stroke-width:1}
details.data summary{cursor:pointer;color:#0b5cad;margin:.5rem 0}
.fit{overflow-wrap:anywhere}
`;
