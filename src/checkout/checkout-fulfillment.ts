/**
 * The checkout's fulfillment state from a request and the previous state: one shipping
 * method covering every line (platforms without supports_multi_group get one group),
 * destinations with ids, and the selections. A partial update keeps what it does not
 * mention (seed 002 sends only the option choice and keeps the destination).
 */
import type { FulfillmentRequest } from "../../schemas/ucp/checkout";
import type { Message } from "../../schemas/ucp/common";
import type { MessageCode } from "../ucp/message-codes";
import type { DestinationState, FulfillmentState } from "./checkout-state";
import type { CommerceConfig } from "./commerce-config";
import { type Destination, type FulfillmentOption, shippingOptions } from "./fulfillment";

const METHOD_ID = "shipping_1";
const GROUP_ID = "package_1";
const METHOD_PATH = "$.fulfillment.methods[0]";

export interface FulfillmentResult {
  readonly fulfillment: FulfillmentState | undefined;
  readonly destination: DestinationState | undefined;
  readonly selected: FulfillmentOption | undefined;
  /** The selected option's savings from a free_shipping code, for the applied discount. */
  readonly codeSaving: number;
  readonly messages: Message[];
}

export function resolveFulfillment(
  request: FulfillmentRequest | undefined,
  previous: FulfillmentState | undefined,
  lineIds: readonly string[],
  pricing: { config: CommerceConfig; merchandiseAfterDiscounts: number; freeShippingCode: boolean },
): FulfillmentResult {
  const messages: Message[] = [];
  const asked = request?.methods?.find((m) => m.type !== "pickup") ?? request?.methods?.[0];
  if (asked?.type === "pickup") {
    messages.push(
      error("fulfillment_method_unsupported", `${METHOD_PATH}.type`, "Pickup is not offered; choose shipping."),
    );
  }
  const before = previous?.methods[0];
  if (!before && (!asked || asked.type === "pickup")) {
    if (lineIds.length > 0) messages.push(error("missing", "$.fulfillment", "A shipping address is required."));
    return { fulfillment: undefined, destination: undefined, selected: undefined, codeSaving: 0, messages };
  }
  const destinations = asked?.destinations
    ? asked.destinations.map((d, i): DestinationState => {
        const keep = d.id && before?.destinations.some((b) => b.id === d.id);
        return { ...stringFields(d), id: keep ? (d.id as string) : `dest_${i + 1}` };
      })
    : (before?.destinations ?? []);
  const wantedDestination = asked?.selected_destination_id ?? before?.selected_destination_id ?? null;
  const destination =
    destinations.find((d) => d.id === wantedDestination) ?? (destinations.length === 1 ? destinations[0] : undefined);
  if (!destination) {
    messages.push(
      error("missing", `${METHOD_PATH}.selected_destination_id`, "Choose a shipping address for the order."),
    );
  }
  let options: FulfillmentOption[] = [];
  let codeSavings: Record<string, number> = {};
  if (destination) {
    const index = destinations.indexOf(destination);
    const quote = shippingOptions(
      pricing.config,
      asAddress(destination),
      pricing.merchandiseAfterDiscounts,
      pricing.freeShippingCode,
      `${METHOD_PATH}.destinations[${index}]`,
    );
    if (quote.ok) {
      options = quote.options;
      codeSavings = quote.codeSavings;
    } else messages.push(quote.message);
  }
  const wantedOption =
    asked?.groups?.find((g) => g.selected_option_id)?.selected_option_id ?? before?.groups[0]?.selected_option_id;
  // The cheapest option is preselected so a complete request can go straight through.
  const selected = options.find((o) => o.id === wantedOption) ?? options[0];
  const fulfillment: FulfillmentState = {
    methods: [
      {
        id: METHOD_ID,
        type: "shipping",
        line_item_ids: [...lineIds],
        destinations,
        selected_destination_id: destination?.id ?? null,
        groups: [{ id: GROUP_ID, line_item_ids: [...lineIds], options, selected_option_id: selected?.id ?? null }],
      },
    ],
  };
  return {
    fulfillment,
    destination,
    selected,
    codeSaving: selected ? (codeSavings[selected.id] ?? 0) : 0,
    messages,
  };
}

export const SELECTED_OPTION_PATH = `${METHOD_PATH}.groups[0].selected_option_id`;

export function asAddress(d: DestinationState): Destination {
  return {
    ...(d.address_country ? { address_country: d.address_country } : {}),
    ...(d.address_region ? { address_region: d.address_region } : {}),
    ...(d.postal_code ? { postal_code: d.postal_code } : {}),
  };
}

function stringFields(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) if (typeof v === "string" && key !== "id") out[key] = v;
  return out;
}

function error(code: MessageCode, path: string, content: string): Message {
  return { type: "error", code, path, content, severity: "recoverable" };
}
