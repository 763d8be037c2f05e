/**
 * Payment at 2026-08-25 (spec-digest-2026-08-25 §2.10): available instruments' constraints as
 * Constraint Expressions, and the `pan` / `network_token` credentials read as the model's
 * (2026-04-08) card credential, `card_number_type` saying which.
 *
 * What a handler does with them is the handler's: the built-in test handler charges test
 * tokens only and declines every card credential (pan, network_token or card alike), so no
 * card number is ever acted on; PAN "MUST NOT be used for checkout, only with payment
 * handlers that tokenize or encrypt" (pan_credential.json), and a real processor that takes
 * one is the merchant's, behind its own handler (docs/payments.md).
 */
import { currentConstraints } from "../discovery-handlers";
import type { Json } from "./tool-wire";

/**
 * `ucp.payment_handlers` with every available instrument's constraints as a Constraint
 * Expression (`{brands: ["visa"]}` → `{properties: {brand: {enum: ["visa"]}}}`), the way
 * discovery writes them (src/ucp/discovery-handlers.ts).
 */
export function handlersOut(ucp: unknown): unknown {
  if (!isObject(ucp) || !isObject(ucp.payment_handlers)) return ucp;
  const handlers = Object.fromEntries(
    Object.entries(ucp.payment_handlers).map(([name, entries]) => [
      name,
      Array.isArray(entries) ? entries.map(handlerOut) : entries,
    ]),
  );
  return { ...ucp, payment_handlers: handlers };
}

function handlerOut(entry: unknown): unknown {
  if (!isObject(entry) || !Array.isArray(entry.available_instruments)) return entry;
  const available = entry.available_instruments.flatMap((instrument: unknown) => {
    if (!isObject(instrument) || !isObject(instrument.constraints)) return [instrument];
    try {
      return [{ ...instrument, constraints: currentConstraints(instrument.constraints) }];
    } catch {
      // No 2026-08-25 form (discovery's build refuses such a registry): offered narrower, never wider.
      return [];
    }
  });
  return { ...entry, available_instruments: available };
}

/** Instruments with 2026-08-25 card credentials as the model's card credential. */
export function instrumentsIn(instruments: unknown): unknown {
  if (!Array.isArray(instruments)) return instruments;
  return instruments.map((instrument: unknown) => {
    if (!isObject(instrument) || !isObject(instrument.credential)) return instrument;
    return { ...instrument, credential: credentialIn(instrument.credential) };
  });
}

function credentialIn(credential: Json): Json {
  const { type, ...fields } = credential;
  if (type === "pan") return { type: "card", card_number_type: "fpan", ...fields };
  if (type === "network_token") return { type: "card", card_number_type: "network_token", ...fields };
  return credential;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
