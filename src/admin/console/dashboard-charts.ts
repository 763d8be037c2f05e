/**
 * Server-drawn SVG charts: no library and no script, so the dashboard is one HTML response
 * under the strict CSP. Each chart is an image with a title for screen readers; the page
 * puts the same numbers in a table beside it.
 */
import { html, type SafeHtml } from "../../pages/html";

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** What the bar's tooltip and the screen reader hear, e.g. "12 orders". */
  readonly text: string;
}

/**
 * Vertical bars over time (one per day) with the first, middle and last labels under them
 * and the tallest bar's value (`maxText`) at the top.
 */
export function columnChart(id: string, title: string, bars: readonly Bar[], maxText: string, alt = false): SafeHtml {
  const width = 400;
  const height = 170;
  const top = 18;
  const bottom = 22;
  const plot = height - top - bottom;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const step = width / Math.max(1, bars.length);
  const barWidth = Math.max(2, step * 0.7);
  const last = bars.length - 1;
  const anchor = (i: number) => (i === 0 ? "start" : i === last ? "end" : "middle");
  const labelX = (i: number) => (i === 0 ? 0 : i === last ? width : i * step + step / 2);
  const labelled = new Set([0, Math.floor(last / 2), last]);
  return html`<svg class="chart" id="${id}" role="img" aria-labelledby="${id}-title" viewBox="0 0 ${width} ${height}">
<title id="${id}-title">${title}</title>
<text x="0" y="12">${maxText}</text>
<line class="axis" x1="0" y1="${top + plot}" x2="${width}" y2="${top + plot}"/>
${bars.map((b, i) => {
  const h = Math.round((b.value / max) * plot);
  const x = (i * step + (step - barWidth) / 2).toFixed(1);
  return html`<rect class="bar${alt ? " alt" : ""}" x="${x}" y="${top + plot - h}" width="${barWidth.toFixed(1)}" height="${h}"><title>${b.label}: ${b.text}</title></rect>${
    labelled.has(i)
      ? html`<text x="${labelX(i).toFixed(1)}" y="${height - 5}" text-anchor="${anchor(i)}">${b.label}</text>`
      : ""
  }`;
})}
</svg>`;
}

/** Horizontal bars for categories (statuses, products), each labelled with its value. */
export function barChart(id: string, title: string, bars: readonly Bar[]): SafeHtml {
  const row = 24;
  const labelWidth = 150;
  const width = 400;
  const height = Math.max(row, bars.length * row);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plot = width - labelWidth - 70;
  return html`<svg class="chart" id="${id}" role="img" aria-labelledby="${id}-title" viewBox="0 0 ${width} ${height}">
<title id="${id}-title">${title}</title>
${bars.map((b, i) => {
  const w = Math.max(1, Math.round((b.value / max) * plot));
  const y = i * row;
  return html`<text x="0" y="${y + 16}">${clip(b.label, 22)}</text><rect class="bar" x="${labelWidth}" y="${y + 4}" width="${w}" height="${row - 8}"><title>${b.label}: ${b.text}</title></rect><text x="${labelWidth + w + 6}" y="${y + 16}">${b.text}</text>`;
})}
${bars.length === 0 ? html`<text x="0" y="16">No data yet</text>` : ""}
</svg>`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
