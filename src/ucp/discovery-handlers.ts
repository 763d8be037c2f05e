/**
 * Payment handlers in 2026-08-25's shapes. The store's registry (src/payment/) is written
 * in 2026-04-08's, the model's: an available instrument's `constraints` there is an open
 * object (`{"brands": ["visa"]}`), in 2026-08-25 a Constraint Expression over the
 * instrument's `constraint_target` (`{"properties": {"brand": {"enum": ["visa"]}}}`,
 * digest §2.10 PY2). Checkout responses carry the same registry, so this is exported for them.
 */
import type { HandlerEntry, HandlerRegistry } from "../payment/handlers";

type Instrument = HandlerEntry["available_instruments"][number];

/** 2026-04-08 constraint → the `constraint_target` member it limits (card_payment_instrument.json). */
const TARGET_MEMBER: Readonly<Record<string, string>> = { brands: "brand" };

/**
 * An unknown 2026-04-08 constraint throws rather than vanish: dropping it would widen what
 * the profile offers. It is raised where discovery is built, before anything is published.
 */
export function currentConstraints(constraints: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(constraints)) {
    const member = TARGET_MEMBER[name];
    if (member === undefined || !Array.isArray(value) || value.length === 0) {
      throw new Error(`payment handler constraint "${name}" has no 2026-08-25 form; add it to TARGET_MEMBER`);
    }
    properties[member] = { enum: [...new Set(value)] };
  }
  return { properties };
}

function currentInstrument(instrument: Instrument): Instrument {
  const { constraints, ...rest } = instrument;
  return constraints === undefined ? rest : { ...rest, constraints: currentConstraints(constraints) };
}

export function currentHandlers(registry: HandlerRegistry): HandlerRegistry {
  return Object.fromEntries(
    Object.entries(registry).map(([name, entries]) => [
      name,
      entries.map((entry) => ({ ...entry, available_instruments: entry.available_instruments.map(currentInstrument) })),
    ]),
  );
}

/**
 * `ucp.map_order` for the handlers (overview §map_order): JSON member order means nothing,
 * so with more than one handler the processor's own order is said out loud. None for fewer.
 */
export function handlerOrder(registry: HandlerRegistry): { map_order?: { payment_handlers: string[] } } {
  const names = Object.keys(registry);
  return names.length > 1 ? { map_order: { payment_handlers: names } } : {};
}
