/**
 * The judged query set (issue 28 item 4) over the generated catalog (bench/generate-catalog.ts):
 * 60 queries an agent sends (plain nouns, plurals, typos, attribute words, price words, and
 * queries the catalog has nothing for), each with its judgement as a rule over the product, so
 * it holds at any catalog size and seed. Reported by `npm run bench` (bench/relevance.ts).
 *
 * A judgement names what a relevant product has: `noun` in its title (the product type, in
 * either number), every `words` entry somewhere in its text (title, tags, option labels,
 * categories, description), a `color` option, and a variant priced within `min`..`max`
 * (minor units). `none`: nothing in the catalog answers it, and the right answer is empty.
 */

export type Judgement =
  | {
      readonly noun?: string;
      readonly words?: readonly string[];
      readonly color?: string;
      readonly min?: number;
      readonly max?: number;
    }
  | "none";

export interface JudgedQuery {
  readonly query: string;
  readonly kind: "noun" | "plural" | "typo" | "attribute" | "price" | "category" | "no-match";
  readonly judge: Judgement;
}

const q = (query: string, kind: JudgedQuery["kind"], judge: Judgement): JudgedQuery => ({ query, kind, judge });

export const RELEVANCE_SET: readonly JudgedQuery[] = [
  q("jacket", "noun", { noun: "jacket" }),
  q("hiking boots", "noun", { noun: "hiking boots" }),
  q("running shoes", "noun", { noun: "running shoes" }),
  q("headlamp", "noun", { noun: "headlamp" }),
  q("sleeping bag", "noun", { noun: "sleeping bag" }),
  q("trekking poles", "noun", { noun: "trekking poles" }),
  q("rain shell", "noun", { noun: "rain shell" }),
  q("neck gaiter", "noun", { noun: "neck gaiter" }),
  q("energy gel", "noun", { noun: "energy gel" }),
  q("quarter-zip", "noun", { noun: "quarter-zip" }),
  q("jackets", "plural", { noun: "jacket" }),
  q("hiking boot", "plural", { noun: "hiking boots" }),
  q("tents", "plural", { noun: "tent" }),
  q("hoodies", "plural", { noun: "hoodie" }),
  q("sleeping bags", "plural", { noun: "sleeping bag" }),
  q("bottles", "plural", { noun: "bottle" }),
  q("parkas", "plural", { noun: "parka" }),
  q("daypacks", "plural", { noun: "daypack" }),
  q("trail shoe", "plural", { noun: "trail shoes" }),
  q("beanies", "plural", { noun: "beanie" }),
  q("jakcet", "typo", { noun: "jacket" }),
  q("hikign boots", "typo", { noun: "hiking boots" }),
  q("sandels", "typo", { noun: "sandals" }),
  q("backpak", "typo", { noun: "backpack" }),
  q("hedlamp", "typo", { noun: "headlamp" }),
  q("sunglases", "typo", { noun: "sunglasses" }),
  q("parkka", "typo", { noun: "parka" }),
  q("sleepign bag", "typo", { noun: "sleeping bag" }),
  q("tnet", "typo", { noun: "tent" }),
  q("hodie", "typo", { noun: "hoodie" }),
  q("red jacket", "attribute", { noun: "jacket", color: "Red" }),
  q("navy hoodie", "attribute", { noun: "hoodie", color: "Navy" }),
  q("olive backpack", "attribute", { noun: "backpack", color: "Olive" }),
  q("merino socks", "attribute", { noun: "socks", words: ["merino"] }),
  q("fleece hoodie", "attribute", { noun: "hoodie", words: ["fleece"] }),
  q("alpine tent", "attribute", { noun: "tent", words: ["alpine"] }),
  q("glacier parka", "attribute", { noun: "parka", words: ["glacier"] }),
  q("waterproof jacket", "attribute", { noun: "jacket", words: ["waterproof"] }),
  q("teal running shoes", "attribute", { noun: "running shoes", color: "Teal" }),
  q("summit daypack", "attribute", { noun: "daypack", words: ["summit"] }),
  q("jacket under 100", "price", { noun: "jacket", max: 10000 }),
  q("hiking boots under $150", "price", { noun: "hiking boots", max: 15000 }),
  q("tent over 300", "price", { noun: "tent", min: 30000 }),
  q("running shoes between 50 and 100", "price", { noun: "running shoes", min: 5000, max: 10000 }),
  q("backpack less than 80", "price", { noun: "backpack", max: 8000 }),
  q("sleeping bag under 200 dollars", "price", { noun: "sleeping bag", max: 20000 }),
  q("watch above 250", "price", { noun: "watch", min: 25000 }),
  q("cheap socks under 20", "price", { noun: "socks", max: 2000 }),
  q("gloves", "category", { noun: "gloves" }),
  q("sunglasses", "category", { noun: "sunglasses" }),
  q("stove", "category", { noun: "stove" }),
  q("protein bar", "category", { noun: "protein bar" }),
  q("zzz_no_such_product_zzz", "no-match", "none"),
  q("quantum laptop", "no-match", "none"),
  q("iphone charger", "no-match", "none"),
  q("xqzv", "no-match", "none"),
  q("wedding dress", "no-match", "none"),
  q("lawn mower", "no-match", "none"),
  q("pizza oven", "no-match", "none"),
  q("4k television", "no-match", "none"),
];

export interface JudgedProduct {
  readonly title: string;
  readonly tags?: readonly string[];
  readonly description?: { readonly plain?: string };
  readonly categories?: ReadonlyArray<{ readonly value: string }>;
  readonly options?: ReadonlyArray<{
    readonly name: string;
    readonly values: ReadonlyArray<{ readonly label: string }>;
  }>;
  readonly variants: ReadonlyArray<{ readonly price: { readonly amount: number } }>;
}

const singular = (word: string) => word.replace(/(ies)$/, "y").replace(/s$/, "");
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .map(singular);

/** Whether the product answers the query as judged. */
export function relevant(judge: Judgement, product: JudgedProduct): boolean {
  if (judge === "none") return false;
  const title = words(product.title).join(" ");
  if (judge.noun && !` ${title} `.includes(` ${words(judge.noun).join(" ")} `)) return false;
  if (judge.words) {
    const text = new Set(
      words(
        [
          product.title,
          ...(product.tags ?? []),
          ...(product.categories ?? []).map((c) => c.value),
          ...(product.options ?? []).flatMap((o) => o.values.map((v) => v.label)),
          product.description?.plain ?? "",
        ].join(" "),
      ),
    );
    if (!judge.words.every((w) => text.has(singular(w)))) return false;
  }
  if (judge.color) {
    const colors = product.options?.find((o) => o.name === "Color")?.values.map((v) => v.label) ?? [];
    if (!colors.includes(judge.color)) return false;
  }
  const { min, max } = judge;
  if (min !== undefined || max !== undefined) {
    const priced = product.variants.some(
      (v) => (min === undefined || v.price.amount >= min) && (max === undefined || v.price.amount <= max),
    );
    if (!priced) return false;
  }
  return true;
}
