/**
 * The wire versions: each protocol version is a translation between its own request and
 * response shapes and the one model (../versions.ts MODEL_VERSION), chosen per request by
 * the tool pipeline from the negotiated version. Nothing below the pipeline (tools, objects,
 * pages) knows which version a request spoke.
 */
import type { RawJson } from "../../lib/raw-json";
import type { Result } from "../../lib/result";
import type { ProtocolError } from "../errors";
import { CURRENT_VERSION, LEGACY_VERSION, type UcpVersion } from "../versions";
import { current } from "./current";
import { legacy } from "./legacy";
import type { WireContext } from "./tool-wire";

/** A tool's payload as the model or a wire version writes it: an object, or JSON text. */
export type WirePayload = Readonly<Record<string, unknown>> | RawJson;

export interface WireVersion {
  readonly version: UcpVersion;
  /**
   * This version's tool arguments (already read by the tool's version-neutral input schema)
   * as the model takes them; or a protocol error for what this version forbids.
   */
  request(
    tool: string,
    args: Record<string, unknown>,
    context: WireContext,
  ): Result<Record<string, unknown>, ProtocolError>;
  /** The model's payload as this version writes it. */
  response(tool: string, payload: WirePayload, context: WireContext): WirePayload;
  /**
   * A tool's protocol error (carrying the negotiated envelope) that this version answers as a
   * payload instead; undefined keeps it an error.
   */
  error?(tool: string, error: ProtocolError): WirePayload | undefined;
}

const WIRES: Readonly<Record<UcpVersion, WireVersion>> = {
  [CURRENT_VERSION]: current,
  [LEGACY_VERSION]: legacy,
};

export type { WireContext };

export function wireFor(version: UcpVersion): WireVersion {
  return WIRES[version];
}
