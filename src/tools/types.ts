/** What a tool is: its wire contract (zod in and out) and a run function over typed input. */
import type * as z from "zod";
import type { Principal } from "../auth/authenticate";
import type { MerchantConfig } from "../config";
import type { RawJson } from "../lib/raw-json";
import type { Result } from "../lib/result";
import type { CapabilityName } from "../ucp/capabilities";
import type { UcpEnvelope } from "../ucp/envelope";
import type { ProtocolError } from "../ucp/errors";
import type { Negotiated } from "../ucp/negotiation";

export interface RequestMeta {
  readonly profile: string;
  readonly idempotencyKey: string | undefined;
}

export interface ToolContext {
  readonly env: Env;
  readonly config: MerchantConfig;
  readonly negotiated: Negotiated;
  readonly meta: RequestMeta;
  readonly now: number;
  /** The authenticated caller (or anonymous), for tools that record who acted. */
  readonly principal: Principal;
  /**
   * Set by the buyer pages only: the caller opened this session's hand-off URL, so it may act
   * on that session whoever owns it (docs/trust.md).
   */
  readonly handoff?: boolean;
  /** The `ucp` envelope for this response: negotiated version and relevant capabilities. */
  readonly envelope: (status?: "success" | "error") => UcpEnvelope;
}

export type { UcpEnvelope };

/**
 * A UCP payload: what goes in `structuredContent` (or `result` for direct-method calls),
 * as an object or as JSON text already serialized (e.g. by a Durable Object).
 */
export type UcpPayload = ({ ucp: UcpEnvelope } & Record<string, unknown>) | RawJson;

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly description: string;
  readonly capability: CapabilityName;
  readonly idempotencyKeyRequired: boolean;
  /** The tool's arguments other than `meta`: one key holding the UCP request object. */
  readonly input: z.ZodObject<Shape>;
  /** The success payload; tools/list publishes it together with the error response. */
  readonly output: z.ZodType;
  run(input: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<Result<UcpPayload, ProtocolError>>;
}

/** Erases the input type so tools of different inputs share one registry. */
export function defineTool<Shape extends z.ZodRawShape>(tool: ToolDefinition<Shape>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}
