/**
 * Checkout fulfillment at 2026-08-25 (fulfillment.json, #688 and #507): every destination in a
 * response has its `type` (shipping destinations `shipping_address`; pickup locations, which
 * this store does not offer, would be `business_location`), and option descriptions are
 * Description objects (the model's description never repeats the title: fulfillment.ts).
 * In requests a destination's `type` is read and dropped; a platform may only write shipping
 * addresses ("The Platform MUST NOT write Business Location Destinations").
 */
import { err, ok, type Result } from "../../lib/result";
import { invalidParams, type ProtocolError } from "../errors";
import type { Json } from "./tool-wire";

export function fulfillmentOut(fulfillment: unknown): unknown {
  if (!isObject(fulfillment) || !Array.isArray(fulfillment.methods)) return fulfillment;
  return { ...fulfillment, methods: fulfillment.methods.map(methodOut) };
}

function methodOut(method: unknown): unknown {
  if (!isObject(method)) return method;
  const type = method.type === "pickup" ? "business_location" : "shipping_address";
  return {
    ...method,
    ...(Array.isArray(method.destinations)
      ? { destinations: method.destinations.map((d: unknown) => (isObject(d) ? { ...d, type } : d)) }
      : {}),
    ...(Array.isArray(method.groups) ? { groups: method.groups.map(groupOut) } : {}),
  };
}

function groupOut(group: unknown): unknown {
  if (!isObject(group) || !Array.isArray(group.options)) return group;
  return {
    ...group,
    options: group.options.map((option: unknown) => {
      if (!isObject(option) || typeof option.description !== "string") return option;
      return { ...option, description: { plain: option.description } };
    }),
  };
}

/** A request's fulfillment as the model's: destinations without `type`, only shipping ones accepted. */
export function fulfillmentIn(fulfillment: unknown, at: string): Result<unknown, ProtocolError> {
  if (!isObject(fulfillment) || !Array.isArray(fulfillment.methods)) return ok(fulfillment);
  const methods: unknown[] = [];
  for (const [m, method] of fulfillment.methods.entries()) {
    if (!isObject(method) || !Array.isArray(method.destinations)) {
      methods.push(method);
      continue;
    }
    const destinations: unknown[] = [];
    for (const [d, destination] of method.destinations.entries()) {
      if (!isObject(destination)) {
        destinations.push(destination);
        continue;
      }
      const { type, ...address } = destination;
      if (type !== undefined && type !== "shipping_address") {
        const path = `${at}.methods[${m}].destinations[${d}].type`;
        return err(
          invalidParams(`${path}: a platform writes shipping_address destinations only, not ${String(type)}`, {
            path,
          }),
        );
      }
      destinations.push(address);
    }
    methods.push({ ...method, destinations });
  }
  return ok({ ...fulfillment, methods });
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
