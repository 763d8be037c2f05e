/** Ids shaped like Stripe's: a prefix and 24 random alphanumerics (`pi_3Pgafy…`). */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return `${prefix}_${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}

export const now = (): number => Math.floor(Date.now() / 1000);
