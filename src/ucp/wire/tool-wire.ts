/** One capability's part of a wire version: per tool, how requests are read and payloads written. */
import type { CommerceConfig } from "../../checkout/commerce-config";
import type { MerchantConfig } from "../../config";
import type { Result } from "../../lib/result";
import type { ProtocolError } from "../errors";

export type Json = Record<string, unknown>;

/** What a translation may read besides the payload: the store's settings (policies, origin). */
export interface WireContext {
  readonly config: MerchantConfig;
  /** On a response: the request it answers, as the model took it (catalog fulfillment reads its destination). */
  readonly request?: Json;
  /** The store's shipping settings, read only when a translation needs them (they may not parse). */
  readonly commerce?: () => Pick<CommerceConfig, "shipping">;
}

export interface ToolWire {
  readonly requests: Readonly<Record<string, (args: Json, context: WireContext) => Result<Json, ProtocolError>>>;
  readonly responses: Readonly<Record<string, (payload: Json, context: WireContext) => Json>>;
}
