/**
 * get_product: the effective option selection (with relaxation), the variants matching
 * it, and available/exists signals on every option value. Pure over one product.
 */
import type { GetProductRequest } from "../../schemas/ucp/catalog";
import type { DetailProduct, Product, Variant } from "../../schemas/ucp/product";
import { withUrl } from "./product-view";

type Selection = Array<{ name: string; label: string }>;

const optionLabel = (variant: Variant, name: string) => variant.options?.find((o) => o.name === name)?.label;
const isAvailable = (variant: Variant) => variant.availability?.available !== false;
const matches = (variant: Variant, selection: Selection) =>
  selection.every((s) => optionLabel(variant, s.name) === s.label);

/**
 * Builds the detail view. `requestedVariant` is set when the request named a variant id:
 * it comes first and its options are the selection (a conflicting `selected` is ignored).
 */
export function productDetail(
  product: Product,
  request: GetProductRequest,
  requestedVariant: Variant | undefined,
  variantFilter: (variant: Variant) => boolean,
  origin: string,
): DetailProduct {
  const optionNames = (product.options ?? []).map((o) => o.name);
  const featured = requestedVariant ?? product.variants[0];
  let selection: Selection;
  let variants: Variant[];
  if (requestedVariant) {
    selection = ownSelection(requestedVariant, optionNames);
    variants = [requestedVariant, ...product.variants.filter((v) => v !== requestedVariant && matches(v, selection))];
  } else if (request.selected && request.selected.length > 0) {
    selection = relax(product.variants, validSelection(request.selected, product), request.preferences ?? []);
    variants = orderFeatured(product.variants.filter((v) => matches(v, selection)));
  } else {
    // Nothing selected: the featured variant's options anchor the signals, and every
    // variant is returned so an agent can pick one without another round trip.
    selection = featured ? ownSelection(featured, optionNames) : [];
    variants = [...product.variants];
  }
  const filtered = variants.filter(variantFilter);
  const detail: DetailProduct = {
    ...withUrl(product, origin),
    variants: filtered.length > 0 ? filtered : variants,
  };
  if (product.options && product.options.length > 0) {
    detail.options = product.options.map((option) => ({
      name: option.name,
      values: option.values.map((value) => ({
        ...value,
        ...signals(product.variants, selection, option.name, value.label),
      })),
    }));
    detail.selected = selection;
  }
  return detail;
}

function ownSelection(variant: Variant, optionNames: readonly string[]): Selection {
  return optionNames.flatMap((name) => {
    const label = optionLabel(variant, name);
    return label === undefined ? [] : [{ name, label }];
  });
}

/** Keeps selections that name a real option value, first occurrence of each option. */
function validSelection(selected: NonNullable<GetProductRequest["selected"]>, product: Product): Selection {
  const seen = new Set<string>();
  const out: Selection = [];
  for (const s of selected) {
    const option = product.options?.find((o) => o.name === s.name);
    if (!option || seen.has(s.name) || !option.values.some((v) => v.label === s.label)) continue;
    seen.add(s.name);
    out.push({ name: s.name, label: s.label });
  }
  return out;
}

/**
 * Drops selections until some variant matches: options absent from `preferences` go
 * first, then preferences from the end (the most important option is kept longest).
 */
function relax(variants: readonly Variant[], selection: Selection, preferences: readonly string[]): Selection {
  const rank = (name: string) => {
    const i = preferences.indexOf(name);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const current = [...selection].sort((a, b) => rank(a.name) - rank(b.name));
  while (current.length > 0 && !variants.some((v) => matches(v, current))) current.pop();
  const kept = new Set(current.map((s) => s.name));
  return selection.filter((s) => kept.has(s.name));
}

function orderFeatured(variants: Variant[]): Variant[] {
  const first = variants.findIndex(isAvailable);
  if (first <= 0) return variants;
  return [variants[first] as Variant, ...variants.slice(0, first), ...variants.slice(first + 1)];
}

function signals(variants: readonly Variant[], selection: Selection, option: string, label: string) {
  const others = selection.filter((s) => s.name !== option);
  const candidates = variants.filter((v) => optionLabel(v, option) === label && matches(v, others));
  return { available: candidates.some(isAvailable), exists: candidates.length > 0 };
}
