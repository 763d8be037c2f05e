/**
 * A free-text query as the D1 search reads it (search-d1.ts): the words to match, and price
 * words ("under 200", "over $50", "between 20 and 40") taken out as price bounds in minor units.
 */

/** Words that say nothing about a product; the loader keeps them, queries drop them. */
const STOPWORDS = new Set([
  ..."a an and are as at be by for from in into is it of on or the to with looking want need some any my me i".split(
    " ",
  ),
  // Words about price or taste that no product text carries: agents add them to real queries.
  ..."cheap cheapest affordable budget inexpensive best good nice new dollars dollar usd eur bucks price priced".split(
    " ",
  ),
]);

const MAX_WORDS = 8;

export interface QueryWords {
  readonly words: string[];
  readonly minPrice?: number;
  readonly maxPrice?: number;
}

/** Lower-cased, accent-folded words, as FTS5's unicode61 tokenizer splits them. */
export function foldWords(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}.]+/u)
    .flatMap((w) => w.split(/\.(?!\d)/))
    .filter((w) => w.length > 0);
}

const MAX_WORD = new Set(["under", "below", "less", "cheaper", "max", "upto", "within"]);
const MIN_WORD = new Set(["over", "above", "more", "min", "least"]);

/** `fractionDigits`: the store currency's minor-unit digits (USD 2, JPY 0). */
export function queryWords(text: string, fractionDigits: number): QueryWords {
  const raw = foldWords(text.replace(/\$/g, " "));
  const scale = 10 ** fractionDigits;
  const amount = (w: string | undefined) =>
    w !== undefined && /^\d+(\.\d+)?$/.test(w) ? Math.round(Number(w) * scale) : undefined;
  const words: string[] = [];
  let minPrice: number | undefined;
  let maxPrice: number | undefined;
  for (let i = 0; i < raw.length; i++) {
    const w = raw[i] as string;
    // "less than 50", "up to 50", "at least 50": the filler word before the number.
    const skip = raw[i + 1] === "than" || raw[i + 1] === "to" ? 1 : 0;
    const value = amount(raw[i + 1 + skip]);
    if ((MAX_WORD.has(w) || (w === "up" && skip === 1)) && value !== undefined) {
      maxPrice = value;
      i += 1 + skip;
      continue;
    }
    if (MIN_WORD.has(w) && value !== undefined) {
      minPrice = value;
      i += 1 + skip;
      continue;
    }
    if (
      w === "between" &&
      amount(raw[i + 1]) !== undefined &&
      raw[i + 2] === "and" &&
      amount(raw[i + 3]) !== undefined
    ) {
      minPrice = amount(raw[i + 1]);
      maxPrice = amount(raw[i + 3]);
      i += 3;
      continue;
    }
    if (STOPWORDS.has(w)) continue;
    const word = w.replace(/\./g, "");
    if (word.length > 0 && !words.includes(word)) words.push(word);
  }
  return {
    words: words.slice(0, MAX_WORDS),
    ...(minPrice !== undefined ? { minPrice } : {}),
    ...(maxPrice !== undefined ? { maxPrice } : {}),
  };
}

/** A word as an FTS5 string (quoted, so no word is read as an operator), the last one as a prefix too. */
export function ftsTerm(word: string, prefix: boolean): string {
  const quoted = `"${word.replace(/"/g, '""')}"`;
  return prefix && word.length >= 3 ? `${quoted}*` : quoted;
}

/**
 * Optimal string alignment distance (a transposition counts one), stopping past `max`:
 * "jakcet" is one edit from "jacket".
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (prev2[j - 2] as number) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2.splice(0, prev2.length, ...prev);
    prev = row;
  }
  return prev[b.length] as number;
}

/** How many edits a word of this length may be from its correction. */
export function allowedEdits(word: string): number {
  return word.length <= 3 ? 0 : word.length <= 5 ? 1 : 2;
}
