/**
 * Instruments checked against the handler they name: a handler lists the instrument types
 * it takes (`available_instruments`, e.g. the test handler takes only cards), and an
 * instrument of another type can never be paid through it, so it is invalid params before
 * anything is stored or charged. An unknown handler id is left to completion, which answers
 * it as a message on the checkout (invalid_handler).
 */
import type { PaymentInstrument } from "../../schemas/ucp/checkout";
import type { MerchantConfig } from "../config";
import { invalidParams, type ProtocolError } from "../ucp/errors";
import { findHandler } from "./handlers";
import { paymentHandlers } from "./store-processor";

export function instrumentTypeProblem(
  config: Pick<MerchantConfig, "paymentTestMode" | "origin">,
  instruments: readonly PaymentInstrument[] | undefined,
  path = "$.checkout.payment.instruments",
): ProtocolError | undefined {
  if (!instruments || instruments.length === 0) return undefined;
  const registry = paymentHandlers(config);
  const issues = instruments.flatMap((instrument, i) => {
    const handler = findHandler(registry, instrument.handler_id);
    const types = handler?.available_instruments.map((a) => a.type) ?? [];
    if (!handler || types.includes(instrument.type)) return [];
    const message = `handler ${handler.id} takes ${types.join(", ")} instruments, not ${instrument.type}`;
    return [{ path: `${path}[${i}].type`, message }];
  });
  const first = issues[0];
  return first ? invalidParams(`Invalid payment instrument: ${first.path}: ${first.message}`, { issues }) : undefined;
}
