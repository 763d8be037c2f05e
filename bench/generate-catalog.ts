// Deterministic synthetic catalog for benchmarks, in the same shape as
// data/demo-catalog.json (including the non-UCP `stock` field). Pure: no Node APIs.

type Rng = () => number;

interface Money {
  amount: number;
  currency: "USD";
}

interface SelectedOption {
  name: string;
  label: string;
}

type Status = "in_stock" | "backorder" | "out_of_stock" | "preorder" | "discontinued";

interface ProductType {
  noun: string;
  category: string;
  sizes: readonly string[] | null;
  colors: boolean;
}

const ADJECTIVES = [
  "Alpine",
  "Summit",
  "Ridge",
  "Canyon",
  "Glacier",
  "Tempo",
  "Velocity",
  "Horizon",
  "Storm",
  "Ember",
  "Nimbus",
  "Cascade",
  "Granite",
  "Cedar",
  "Aurora",
  "Boulder",
  "Coastal",
  "Desert",
  "Drift",
  "Echo",
  "Falcon",
  "Frontier",
  "Harbor",
  "Highland",
  "Juniper",
  "Kestrel",
  "Lumen",
  "Meridian",
  "Mesa",
  "Nomad",
  "Northwind",
  "Outpost",
  "Pacer",
  "Pinnacle",
  "Prairie",
  "Quarry",
  "Redwood",
  "Sierra",
  "Solstice",
  "Sprint",
  "Strider",
  "Switchback",
  "Talus",
  "Timberline",
  "Tundra",
  "Vista",
  "Wildland",
  "Zephyr",
] as const;

const MATERIALS = [
  "Merino",
  "Fleece",
  "Nylon",
  "Canvas",
  "Softshell",
  "Ripstop",
  "Down",
  "Mesh",
  "Bamboo",
  "Hemp",
  "Titanium",
  "Carbon",
  "Aluminum",
  "Leather",
  "Polartec",
  "Cotton",
  "Alpaca",
  "Cordura",
] as const;

const COLORS = [
  "Black",
  "Blue",
  "Red",
  "Green",
  "Gray",
  "White",
  "Orange",
  "Navy",
  "Olive",
  "Teal",
  "Coral",
  "Tan",
  "Yellow",
  "Purple",
  "Charcoal",
  "Sand",
  "Rust",
  "Sky Blue",
] as const;

const APPAREL_SIZES = ["XS", "S", "M", "L", "XL", "XXL"] as const;
const SHOE_SIZES = ["6", "7", "8", "9", "10", "11", "12", "13"] as const;
const PACK_SIZES = ["S/M", "M/L"] as const;

const PRODUCT_TYPES: readonly ProductType[] = [
  { noun: "Running Shoes", category: "Footwear > Running", sizes: SHOE_SIZES, colors: true },
  { noun: "Trail Shoes", category: "Footwear > Trail", sizes: SHOE_SIZES, colors: true },
  { noun: "Hiking Boots", category: "Footwear > Hiking", sizes: SHOE_SIZES, colors: true },
  { noun: "Sandals", category: "Footwear > Sandals", sizes: SHOE_SIZES, colors: true },
  { noun: "Slides", category: "Footwear > Recovery", sizes: SHOE_SIZES, colors: false },
  { noun: "Tee", category: "Apparel > Tops", sizes: APPAREL_SIZES, colors: true },
  { noun: "Tank", category: "Apparel > Tops", sizes: APPAREL_SIZES, colors: true },
  { noun: "Hoodie", category: "Apparel > Midlayers", sizes: APPAREL_SIZES, colors: true },
  { noun: "Quarter-Zip", category: "Apparel > Midlayers", sizes: APPAREL_SIZES, colors: true },
  { noun: "Shorts", category: "Apparel > Bottoms", sizes: APPAREL_SIZES, colors: true },
  { noun: "Tights", category: "Apparel > Bottoms", sizes: APPAREL_SIZES, colors: true },
  { noun: "Pants", category: "Apparel > Bottoms", sizes: APPAREL_SIZES, colors: true },
  { noun: "Socks", category: "Apparel > Socks", sizes: ["S", "M", "L"], colors: true },
  { noun: "Base Layer", category: "Apparel > Base Layers", sizes: APPAREL_SIZES, colors: true },
  { noun: "Jacket", category: "Outerwear > Jackets", sizes: APPAREL_SIZES, colors: true },
  { noun: "Rain Shell", category: "Outerwear > Rain Shells", sizes: APPAREL_SIZES, colors: true },
  { noun: "Parka", category: "Outerwear > Insulated", sizes: APPAREL_SIZES, colors: true },
  { noun: "Vest", category: "Outerwear > Vests", sizes: APPAREL_SIZES, colors: true },
  { noun: "Beanie", category: "Accessories > Hats", sizes: null, colors: true },
  { noun: "Cap", category: "Accessories > Hats", sizes: null, colors: true },
  { noun: "Gloves", category: "Accessories > Gloves", sizes: ["S", "M", "L"], colors: false },
  { noun: "Sunglasses", category: "Accessories > Eyewear", sizes: null, colors: true },
  { noun: "Watch", category: "Accessories > Watches", sizes: null, colors: true },
  { noun: "Neck Gaiter", category: "Accessories > Neckwear", sizes: null, colors: true },
  { noun: "Daypack", category: "Gear > Packs", sizes: null, colors: true },
  { noun: "Backpack", category: "Gear > Packs", sizes: PACK_SIZES, colors: true },
  { noun: "Hydration Vest", category: "Gear > Hydration", sizes: ["XS", "S", "M", "L"], colors: false },
  { noun: "Bottle", category: "Gear > Hydration", sizes: null, colors: true },
  { noun: "Headlamp", category: "Gear > Lighting", sizes: null, colors: false },
  { noun: "Tent", category: "Gear > Camping > Tents", sizes: null, colors: false },
  { noun: "Sleeping Bag", category: "Gear > Camping > Sleeping Bags", sizes: null, colors: false },
  { noun: "Trekking Poles", category: "Gear > Poles", sizes: null, colors: false },
  { noun: "Stove", category: "Gear > Camping > Cookware", sizes: null, colors: false },
  { noun: "Energy Gel", category: "Nutrition > Gels", sizes: null, colors: false },
  { noun: "Drink Mix", category: "Nutrition > Drink Mix", sizes: null, colors: false },
  { noun: "Protein Bar", category: "Nutrition > Bars", sizes: null, colors: false },
];

const ACTIVITIES = [
  "running",
  "hiking",
  "trail",
  "camping",
  "climbing",
  "backpacking",
  "training",
  "racing",
  "commuting",
  "travel",
  "ultrarunning",
  "trekking",
  "snowshoeing",
  "paddling",
] as const;

const FEATURES = [
  "waterproof",
  "breathable",
  "lightweight",
  "packable",
  "insulated",
  "reflective",
  "cushioned",
  "durable",
  "stretchy",
  "windproof",
  "quick-dry",
  "odor-resistant",
  "recycled",
  "ventilated",
  "seamless",
  "supportive",
  "grippy",
  "stable",
  "responsive",
  "warm",
  "compact",
  "rugged",
  "versatile",
  "soft",
] as const;

const TERRAIN = [
  "muddy singletrack",
  "rocky ridgelines",
  "city streets",
  "forest paths",
  "alpine passes",
  "desert washes",
  "wet pavement",
  "snowy trails",
  "coastal bluffs",
  "long fire roads",
] as const;

const BENEFITS = ["comfortable", "dry", "focused", "protected", "confident", "cool", "fast", "steady"] as const;

const CLOSERS = [
  "Pairs well with the rest of the collection.",
  "Backed by our two-year guarantee.",
  "Designed and tested in the mountains.",
  "Made with responsibly sourced materials.",
  "A staff favorite for everyday adventures.",
] as const;

/** Deterministic PRNG (mulberry32): the same seed gives the same catalog, queries and ids. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function int(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

/** k distinct items, kept in their original (display) order. */
function sample<T>(rng: Rng, items: readonly T[], k: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(k, items.length)) chosen.add(Math.floor(rng() * items.length));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
}

/** k distinct items in random order (partial Fisher-Yates). */
function shuffled<T>(rng: Rng, items: readonly T[], k: number): T[] {
  const pool = [...items];
  const n = Math.min(k, pool.length);
  for (let i = 0; i < n; i++) {
    const j = int(rng, i, pool.length - 1);
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, n);
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function money(amount: number): Money {
  return { amount, currency: "USD" };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(rng: Rng, type: ProductType): string {
  const noun = type.noun.toLowerCase();
  switch (int(rng, 0, 4)) {
    case 0:
      return `Built for ${pick(rng, ACTIVITIES)} with ${pick(rng, FEATURES)} ${pick(rng, MATERIALS).toLowerCase()} construction and ${pick(rng, FEATURES)} details.`;
    case 1:
      return `This ${pick(rng, FEATURES)} ${noun} keeps you ${pick(rng, BENEFITS)} on ${pick(rng, TERRAIN)}.`;
    case 2: {
      const [a = "", b = ""] = shuffled(rng, FEATURES, 2);
      const [x = "", y = ""] = shuffled(rng, ACTIVITIES, 2);
      return `${capitalize(a)} and ${b}, it handles ${x} and ${y} with ease.`;
    }
    case 3: {
      const [a = "", b = ""] = shuffled(rng, TERRAIN, 2);
      return `Hikers and runners choose it for ${a} and ${b}.`;
    }
    default:
      return pick(rng, CLOSERS);
  }
}

/** 15 to 40 words of plain text, in whole sentences. */
function description(rng: Rng, type: ProductType): string {
  const target = int(rng, 15, 40);
  const sentences: string[] = [];
  let words = 0;
  while (words < target) {
    const next = sentence(rng, type);
    const length = next.split(" ").length;
    // Stop early only past 15 words; sentences are under 15 words, so the total never passes 40.
    if (words >= 15 && words + length > 40) break;
    sentences.push(next);
    words += length;
  }
  return sentences.join(" ");
}

function title(rng: Rng, type: ProductType): string {
  const material = rng() < 0.4 ? `${pick(rng, MATERIALS)} ` : "";
  return `${pick(rng, ADJECTIVES)} ${material}${type.noun}`;
}

function tags(rng: Rng, type: ProductType): string[] {
  const out = new Set<string>([type.category.split(" > ").at(-1)?.toLowerCase() ?? "gear"]);
  const extra = int(rng, 1, 4);
  while (out.size < extra + 1) out.add(pick(rng, rng() < 0.5 ? ACTIVITIES : FEATURES));
  return [...out];
}

/** Option selections for up to 8 variants; [] means a single variant without options. */
function variantOptions(rng: Rng, type: ProductType): SelectedOption[][] {
  const useColor = type.colors && rng() < 0.8;
  const useSize = type.sizes !== null && rng() < 0.85;
  if (!useColor && !useSize) return [[]];
  const colors = useColor ? sample(rng, COLORS, useSize ? int(rng, 1, 3) : int(rng, 2, 6)) : [];
  const sizes = useSize && type.sizes ? sample(rng, type.sizes, int(rng, 2, type.sizes.length)) : [];
  const grid = cross(colors.length ? colors : [null], sizes.length ? sizes : [null]);
  return sample(rng, grid, int(rng, Math.min(2, grid.length), Math.min(8, grid.length)));
}

function cross(colors: Array<string | null>, sizes: Array<string | null>): SelectedOption[][] {
  return colors.flatMap((color) =>
    sizes.map((size) => [
      ...(color !== null ? [{ name: "Color", label: color }] : []),
      ...(size !== null ? [{ name: "Size", label: size }] : []),
    ]),
  );
}

function status(rng: Rng): Status {
  const r = rng();
  if (r < 0.78) return "in_stock";
  if (r < 0.9) return "out_of_stock";
  if (r < 0.95) return "backorder";
  if (r < 0.98) return "preorder";
  return "discontinued";
}

function stockFor(rng: Rng, s: Status): number {
  return s === "in_stock" ? int(rng, 1, 250) : 0;
}

interface VariantSpec {
  n: number;
  k: number;
  title: string;
  options: SelectedOption[];
  price: number;
  listPrice: number | null;
}

function variant(rng: Rng, { n, k, title, options, price, listPrice }: VariantSpec) {
  const s = status(rng);
  const labels = options.map((o) => o.label).join(" / ");
  return {
    id: `var_g${n}_${k}`,
    sku: `G${n}-${k}`,
    title: labels || "Default",
    description: { plain: labels ? `${title}, ${labels}.` : `${title}.` },
    price: money(price),
    ...(listPrice !== null ? { list_price: money(listPrice) } : {}),
    availability: { available: s === "in_stock" || s === "backorder" || s === "preorder", status: s },
    ...(options.length ? { options } : {}),
    stock: stockFor(rng, s),
  };
}

/** Product-level options in display order (the order of the source lists). */
function productOptions(selections: SelectedOption[][], type: ProductType) {
  const order: Record<string, readonly string[]> = { Color: COLORS, Size: type.sizes ?? [] };
  const byName = new Map<string, Set<string>>();
  for (const { name, label } of selections.flat()) byName.set(name, (byName.get(name) ?? new Set()).add(label));
  return [...byName].map(([name, labels]) => {
    const rank = order[name] ?? [];
    const sorted = [...labels].sort((a, b) => rank.indexOf(a) - rank.indexOf(b));
    return { name, values: sorted.map((label) => ({ label })) };
  });
}

function range(amounts: number[]) {
  return { min: money(Math.min(...amounts)), max: money(Math.max(...amounts)) };
}

function product(rng: Rng, n: number) {
  const type = pick(rng, PRODUCT_TYPES);
  const name = title(rng, type);
  const handle = `${slugify(name)}-g${n}`;
  const base = int(rng, 12, 389) * 100 + 99;
  const onSale = rng() < 0.1;
  const selections = variantOptions(rng, type);
  const variants = selections.map((opts, k) => {
    const price = base + (rng() < 0.2 ? 1000 : 0);
    const listPrice = onSale ? price + Math.round(price * 0.25) : null;
    return variant(rng, { n, k: k + 1, title: name, options: opts, price, listPrice });
  });
  const options = productOptions(selections, type);
  return {
    id: `prod_g${n}`,
    handle,
    title: name,
    description: { plain: description(rng, type) },
    categories: [{ value: type.category, taxonomy: "merchant" }],
    price_range: range(variants.map((v) => v.price.amount)),
    ...(onSale ? { list_price_range: range(variants.map((v) => v.list_price?.amount ?? v.price.amount)) } : {}),
    media: [{ type: "image", url: `https://images.demo-outfitters.example/${handle}.jpg`, alt_text: name }],
    ...(options.length ? { options } : {}),
    variants,
    ...(rng() < 0.7 ? { rating: { value: int(rng, 30, 50) / 10, scale_max: 5, count: int(rng, 0, 2000) } } : {}),
    tags: tags(rng, type),
  };
}

export function generateCatalog(count: number, seed = 1): { currency: "USD"; products: unknown[] } {
  const rng = mulberry32(seed);
  const products: unknown[] = [];
  for (let n = 1; n <= count; n++) products.push(product(rng, n));
  return { currency: "USD", products };
}

/** The same products as generateCatalog, one at a time: a million never sit in memory at once. */
export function* generateProducts(count: number, seed = 1): Generator<unknown> {
  const rng = mulberry32(seed);
  for (let n = 1; n <= count; n++) yield product(rng, n);
}
