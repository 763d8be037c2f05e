/**
 * A URL a buyer's browser is sent to or loads from in a merchant setting (a logo, a policy
 * document): https, or http on localhost for local development.
 */
export function isHttpsOrLocalUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && url.hostname === "localhost");
  } catch {
    return false;
  }
}
