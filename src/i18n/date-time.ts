/**
 * An instant to the minute in a store's locale, the zone named: "Mar 5, 2026, 2:05 PM UTC",
 * "5. März 2026, 15:05 MEZ". The console and the buyer's order page say times the same way;
 * each picks the zone. Pages keep the ISO instant in `<time datetime>` for machines.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function formatDateTime(locale: string, timeZone: string, at: number | string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  const key = `${locale}\u0000${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    });
    // One locale and a zone or two per store; the bound only matters to tests that vary them.
    if (formats.size >= 8) formats.clear();
    formats.set(key, format);
  }
  return format.format(date);
}
