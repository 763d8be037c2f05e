/**
 * Per-option pickers on the product page (one radio group per option: Color, Size). The form
 * posts the chosen values and the server picks the variant (no JavaScript needed); where
 * script runs, the page says at once whether the combination exists and can be bought.
 */
import type { MessageKey } from "../i18n/messages/en";
import type { Translate } from "../i18n/translate";
import { html, type SafeHtml } from "./html";
import { type CatalogVariant, isAvailable } from "./storefront-catalog";

/** One option and the values some variant has, in the catalog's order. */
export interface OptionAxis {
  readonly name: string;
  readonly values: readonly string[];
}

export const OPTION_FIELD = "opt.";

interface DeclaredOption {
  readonly name: string;
  readonly values: ReadonlyArray<{ readonly label: string }>;
}

function labelOf(variant: CatalogVariant, option: string): string | undefined {
  return variant.options?.find((o) => o.name === option)?.label;
}

/**
 * The pickers' options, or undefined when the variants are not described by them (one variant,
 * no options, or a variant without a value for some option): the page then lists variants.
 */
export function optionAxes(
  declared: readonly DeclaredOption[] | undefined,
  variants: readonly CatalogVariant[],
): OptionAxis[] | undefined {
  if (!declared || declared.length === 0 || variants.length < 2) return undefined;
  if (!variants.every((v) => declared.every((o) => labelOf(v, o.name) !== undefined))) return undefined;
  return declared.map((o) => ({
    name: o.name,
    values: o.values.map((v) => v.label).filter((label) => variants.some((v) => labelOf(v, o.name) === label)),
  }));
}

export function selectionOf(variant: CatalogVariant | undefined, axes: readonly OptionAxis[]): string[] {
  return axes.map((axis) => (variant ? (labelOf(variant, axis.name) ?? "") : (axis.values[0] ?? "")));
}

/** The values a submitted form chose, one per option ("" where none was). */
export function readSelection(form: FormData, axes: readonly OptionAxis[]): string[] {
  return axes.map((_, i) => {
    const value = form.get(`${OPTION_FIELD}${i}`);
    return typeof value === "string" ? value.slice(0, 256) : "";
  });
}

export type Choice =
  | { readonly ok: true; readonly variant: CatalogVariant }
  | { readonly ok: false; readonly status: number; readonly message: string };

/** The variant a selection names, or why it cannot be added (no such combination, sold out). */
export function choose(
  t: Translate,
  axes: readonly OptionAxis[],
  variants: readonly CatalogVariant[],
  selection: readonly string[],
): Choice {
  if (selection.some((value) => value === "")) return { ok: false, status: 422, message: t("product.chooseAll") };
  const choice = selection.join(" / ");
  const variant = variants.find((v) => axes.every((axis, i) => labelOf(v, axis.name) === selection[i]));
  if (!variant) return { ok: false, status: 422, message: t("product.comboMissing", { choice }) };
  if (!isAvailable(variant)) return { ok: false, status: 409, message: t("product.comboSoldOut", { choice }) };
  return { ok: true, variant };
}

/** What the status line says for a selection (the script says the same after each change). */
function statusText(
  t: Translate,
  variants: readonly CatalogVariant[],
  axes: readonly OptionAxis[],
  selection: readonly string[],
  price: (v: CatalogVariant) => string,
): string {
  const chosen = choose(t, axes, variants, selection);
  return chosen.ok ? `${selection.join(" / ")} — ${price(chosen.variant)}` : chosen.message;
}

/** One fieldset per option; a value no buyable variant has says "sold out" in words. */
export function pickers(
  t: Translate,
  axes: readonly OptionAxis[],
  variants: readonly CatalogVariant[],
  selection: readonly string[],
  price: (v: CatalogVariant) => string,
): SafeHtml {
  const soldOut = (axis: OptionAxis, value: string) =>
    !variants.some((v) => labelOf(v, axis.name) === value && isAvailable(v));
  const template = (key: MessageKey) => t(key, { choice: "{choice}" });
  return html`${axes.map(
    (axis, i) =>
      html`<fieldset class="picker"><legend>${axis.name}</legend><div class="choices">${axis.values.map(
        (value) =>
          html`<label class="choice"><input type="radio" name="${OPTION_FIELD}${i}" value="${value}"${selection[i] === value ? html` checked` : ""}> <span>${value}</span>${soldOut(axis, value) ? html` <span class="muted">${t("product.soldOut")}</span>` : ""}</label>`,
      )}</div></fieldset>`,
  )}
<p id="choice-status" class="choice-status" role="status" data-missing="${template("product.comboMissing")}" data-sold-out="${template("product.comboSoldOut")}">${statusText(t, variants, axes, selection, price)}</p>`;
}

export const PICKER_CSS = `
fieldset.picker .choices{display:flex;flex-wrap:wrap;gap:.5rem}
label.choice{display:flex;align-items:center;gap:.35rem;margin:0;font-weight:400;border:1px solid #767676;border-radius:.375rem;padding:.45rem .7rem;min-height:2.75rem;background:#fff;cursor:pointer}
label.choice:has(input:checked){border:2px solid var(--accent);font-weight:600}
.choice-status{font-weight:600}
`;

/**
 * Progressive: reads the variants from the table of all options (data-options, data-available),
 * says what the selection is and disables "Add to cart" for a combination that cannot be bought.
 */
export const PICKER_SCRIPT = `(() => {
  const form = document.querySelector('form[action="/cart"]');
  const status = document.getElementById("choice-status");
  if (!form || !status) return;
  const button = form.querySelector("button[type=submit]");
  const rows = [...document.querySelectorAll("tr[data-options]")].map((tr) => ({
    options: JSON.parse(tr.dataset.options), available: tr.dataset.available === "1",
    // The same words as the server's line: price — availability.
    price: [...tr.querySelectorAll("td")].map((td) => td.textContent).join(" — "),
  }));
  const update = () => {
    const picked = [...form.querySelectorAll("fieldset.picker")].map((f) => f.querySelector("input:checked")?.value ?? "");
    const choice = picked.join(" / ");
    const row = rows.find((r) => r.options.every((v, i) => v === picked[i]));
    const ok = !!row && row.available && picked.every((v) => v !== "");
    status.textContent = !row ? status.dataset.missing.replace("{choice}", choice)
      : !row.available ? status.dataset.soldOut.replace("{choice}", choice) : choice + " — " + row.price;
    if (button) button.disabled = !ok;
  };
  form.addEventListener("change", update);
  update();
})();`;
