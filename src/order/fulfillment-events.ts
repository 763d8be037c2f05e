/**
 * Appending a fulfillment event (UCP order: an append-only log) and the fulfilled counts
 * it implies. Pure: the order, the input and `now` in; the next order or issues out.
 */
import { err, ok, type Result } from "../lib/result";
import { type Issue, lineIssues } from "./line-refs";
import type { FulfillmentEventInput } from "./order-input";
import type { FulfillmentEvent, LineCount, OrderLine, OrderState } from "./order-state";

/** Event types that count units as fulfilled; every other type only records what happened. */
const COUNTED: ReadonlySet<string> = new Set(["shipped", "delivered"]);

function unitsOf(events: readonly FulfillmentEvent[], type: string, lineId: string): number {
  let units = 0;
  for (const event of events) {
    if (event.type !== type) continue;
    for (const ref of event.line_items) if (ref.id === lineId) units += ref.quantity;
  }
  return units;
}

/**
 * A unit is fulfilled once shipped or delivered; taking the larger of the two counts means a
 * "delivered" after a "shipped" of the same units does not count them twice, and a delivery
 * with no shipment (local delivery) still counts. Never above the line's active total.
 */
export function fulfilledUnits(line: OrderLine, events: readonly FulfillmentEvent[]): number {
  const shipped = unitsOf(events, "shipped", line.id);
  const delivered = unitsOf(events, "delivered", line.id);
  return Math.min(line.quantity.total, Math.max(shipped, delivered));
}

/** Units of a line an event of this type can still cover. */
function remaining(line: OrderLine, events: readonly FulfillmentEvent[], type: string): number {
  if (!COUNTED.has(type)) return line.quantity.total;
  return Math.max(0, line.quantity.total - unitsOf(events, type, line.id));
}

export function applyEvent(order: OrderState, input: FulfillmentEventInput, now: number): Result<OrderState, Issue[]> {
  const issues = lineIssues(order, input.line_items ?? [], (line, quantity) => {
    const left = remaining(line, order.events, input.type);
    return quantity > left ? `only ${left} unit(s) of ${line.id} can still be marked ${input.type}` : undefined;
  });
  const lines: LineCount[] =
    input.line_items ??
    order.line_items
      .map((line) => ({ id: line.id, quantity: remaining(line, order.events, input.type) }))
      .filter((ref) => ref.quantity > 0);
  if (lines.length === 0) {
    issues.push({
      path: "$.line_items",
      message: `nothing left to mark ${input.type}: every line already is, or was removed`,
    });
  }
  if (issues.length > 0) return err(issues);
  const event: FulfillmentEvent = {
    id: `evt_${order.events.length + 1}`,
    occurred_at: new Date(now).toISOString(),
    type: input.type,
    line_items: lines,
    ...(input.tracking_number ? { tracking_number: input.tracking_number } : {}),
    ...(input.tracking_url ? { tracking_url: input.tracking_url } : {}),
    ...(input.carrier ? { carrier: input.carrier } : {}),
    ...(input.description ? { description: input.description } : {}),
  };
  const events = [...order.events, event];
  return ok({
    ...order,
    events,
    line_items: order.line_items.map((line) => ({
      ...line,
      quantity: { ...line.quantity, fulfilled: fulfilledUnits(line, events) },
    })),
  });
}
