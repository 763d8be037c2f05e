/**
 * Tokenizer shared by the index builder (loader) and queries (Worker): the two must agree,
 * so there is exactly one.
 */
const STOPWORDS = new Set(
  "a an and are as at be by for from in into is it of on or the to with looking want need some any my me i".split(" "),
);

/** Lower-cased, accent-folded word tokens with a light plural fold (shoes → shoe). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const folded = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  for (const raw of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length === 0 || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

/** Category values compare case-insensitively, with " > " as the path separator. */
export function normalizeCategory(value: string): string {
  return value
    .split(">")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.length > 0)
    .join(" > ");
}

export function categoryMatches(productCategory: string, filter: string): boolean {
  return productCategory === filter || productCategory.startsWith(`${filter} > `);
}
