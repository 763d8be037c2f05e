/**
 * The views' CSS: the host's theme variables (ext-apps McpUiStyleVariableKey) where it sends
 * them, readable defaults where it does not, and the store's accent (accentCss) on the one
 * primary action. Light and dark follow hostContext.theme (data-theme on <html>).
 */
export const VIEW_STYLES = [
  ":root{color-scheme:light;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1a1a1a);--muted:var(--color-text-secondary,#555);--line:var(--color-border-primary,#d4d4d8);--card:var(--color-background-secondary,#f7f7f8)}",
  ":root[data-theme=dark]{color-scheme:dark;--bg:var(--color-background-primary,#18181b);--fg:var(--color-text-primary,#f4f4f5);--muted:var(--color-text-secondary,#c4c4cc);--line:var(--color-border-primary,#3f3f46);--card:var(--color-background-secondary,#27272a);--accent-text:#9ec1ff}",
  "*{box-sizing:border-box}",
  "body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 var(--font-sans,system-ui,-apple-system,'Segoe UI',sans-serif)}",
  "main{padding:1rem;max-width:56rem}",
  "h1{font-size:1.25rem;margin:0 0 .5rem}h1:focus{outline:none}",
  "h2{font-size:1rem;margin:.5rem 0 .25rem}",
  "a{color:var(--accent-text)}",
  "a:focus-visible,button:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}",
  ".muted{color:var(--muted)}.small{font-size:.875rem}",
  ".sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}",
  ".products{list-style:none;padding:0;margin:0;display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr))}",
  ".card{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.75rem;display:flex;flex-direction:column;gap:.25rem}",
  ".card img,.gallery img{width:100%;aspect-ratio:1;object-fit:cover;border-radius:.375rem;background:var(--line)}",
  ".gallery{max-width:20rem}",
  ".title{margin:0}.price{margin:0;font-weight:600}.price del{color:var(--muted);font-weight:400}",
  ".badge{margin:0;color:var(--muted);font-size:.875rem}",
  ".actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin-top:auto;padding-top:.5rem}",
  "button,.button{font:inherit;font-weight:600;display:inline-block;min-height:2.75rem;padding:.55rem 1rem;border-radius:.375rem;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer;text-decoration:none;text-align:center}",
  "button:disabled{opacity:.6;cursor:not-allowed}",
  ".field{display:flex;flex-direction:column;gap:.25rem;margin:.5rem 0}",
  "select{font:inherit;min-height:2.75rem;padding:.4rem;border:1px solid var(--line);border-radius:.375rem;background:var(--bg);color:var(--fg)}",
  ".lines{width:100%;border-collapse:collapse;margin:.5rem 0}",
  ".lines th,.lines td{padding:.4rem .25rem;border-bottom:1px solid var(--line);text-align:left;font-weight:400}",
  ".lines thead th{font-size:.875rem;color:var(--muted)}.lines .num{text-align:right;white-space:nowrap}",
  ".totals{margin:.5rem 0}.totals .row{display:flex;justify-content:space-between;gap:1rem;padding:.15rem 0}",
  ".totals dt,.totals dd{margin:0}.totals .grand{font-weight:700;border-top:1px solid var(--line);padding-top:.4rem}",
  ".totals .included{color:var(--muted);font-size:.9em}",
  ".notice{border-left:4px solid var(--accent);padding:.25rem .75rem;margin:.75rem 0}",
  ".messages{margin:0;padding-left:1.1rem}.msg.error{font-weight:600}",
  ".status-line{font-weight:600;margin:0 0 .5rem}.done{font-weight:600}",
  ".status{margin:0 1rem 1rem;min-height:1.5em;color:var(--muted)}",
].join("");
