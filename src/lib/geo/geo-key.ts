/**
 * The comparison key for a place name or code: accents folded, case and punctuation
 * ignored, so "Québec", "QUEBEC" and "U.S.A." match "Quebec" and "USA". Shared by the
 * table generator and the lookup so both fold the same way.
 */
export function geoKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]/g, "");
}
