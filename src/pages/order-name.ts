/**
 * How a page names an order to the person reading it: its short number ("#1001", the order's
 * `label`), or the order id for orders placed before numbers. The id stays the protocol's.
 */
export function orderName(order: { readonly id: string; readonly label?: unknown }): string {
  return typeof order.label === "string" && order.label !== "" ? order.label : order.id;
}
