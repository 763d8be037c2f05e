/**
 * Sale basis (2026-08-25 overview §Quantities and units): a line's quantity counts steps of
 * its item's `quantity_unit`. Every item this store sells is sold `each`, the default basis
 * whose machine identity is (`C62`, scale 0), so responses never carry a descriptor. A
 * platform may assert the basis its quantity counts (checkout §Quantity and sale basis): an
 * assertion of `each` matches, any other basis is refused on that line, never converted or
 * silently reinterpreted. Both versions share this rule (a 2026-04-08 platform that sends the
 * field gets the same answer); only 2026-08-25 defines it.
 */
import type { Message } from "../../schemas/ucp/common";

const EACH = { unit: "C62", scale: 0 } as const;

/**
 * The recoverable error for a line whose asserted basis (`item.quantity_unit` as sent) is not
 * `each`, or undefined when it matches or asserts nothing. Only the machine identity (unit,
 * effective scale) is compared; `display_text` and `increment` never are.
 */
export function quantityUnitMismatch(asserted: unknown, path: string): Message | undefined {
  if (asserted === undefined) return undefined;
  const descriptor = asserted !== null && typeof asserted === "object" ? (asserted as Record<string, unknown>) : {};
  const { unit, scale = 0 } = descriptor;
  if (unit === EACH.unit && scale === EACH.scale) return undefined;
  const named =
    typeof unit === "string" && Number.isInteger(scale)
      ? `${unit.slice(0, 64)} at scale ${scale}`
      : "that quantity_unit (not a unit descriptor)";
  return {
    type: "error",
    code: "quantity_unit_mismatch",
    path,
    content: `This item is sold each (unit ${EACH.unit}, scale ${EACH.scale}): quantity counts whole items, not ${named}. Send the quantity in items, with quantity_unit {"unit":"${EACH.unit}"} or none.`,
    severity: "recoverable",
  };
}
