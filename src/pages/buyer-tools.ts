/**
 * The pages act through the same tools as agents (one state machine, no second path): this
 * runs a tool for the buyer, as the tool pipeline would for a platform, with the store's
 * whole capability set negotiated (the buyer's page is the merchant's own UI) and, on a
 * session opened by hand-off URL, the `handoff` caller the owner check admits.
 */
import { ANONYMOUS } from "../auth/authenticate";
import { RawJson } from "../lib/raw-json";
import { err, ok, type Result } from "../lib/result";
import { TOOLS } from "../tools";
import type { ToolContext } from "../tools/types";
import { BUSINESS_CAPABILITIES, UCP_VERSION } from "../ucp/capabilities";
import type { ProtocolError } from "../ucp/errors";
import { intersectCapabilities, relevantCapabilities } from "../ucp/negotiate";
import type { Negotiated } from "../ucp/negotiation";
import type { PageContext } from "./context";

/** The profile the pages' own sessions are recorded under (never fetched: no negotiation runs). */
export function storefrontProfile(origin: string): string {
  return `${origin}/`;
}

export interface BuyerCallOptions {
  /** The session was opened by its hand-off URL: act on it whoever owns it. */
  readonly handoff?: boolean;
  /** For tools that need one: a value the page put in its form, so a resubmitted form replays. */
  readonly idempotencyKey?: string;
}

export type BuyerCallFailure =
  | { readonly kind: "invalid"; readonly message: string }
  | { readonly kind: "protocol"; readonly error: ProtocolError };

/** The tool's payload as a plain object (what an agent would get in structuredContent). */
export type ToolPayload = Record<string, unknown>;

export async function callAsBuyer(
  ctx: PageContext,
  toolName: string,
  args: unknown,
  options: BuyerCallOptions = {},
): Promise<Result<ToolPayload, BuyerCallFailure>> {
  const tool = TOOLS.get(toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  const parsed = tool.input.safeParse(args);
  if (!parsed.success)
    return err({ kind: "invalid", message: parsed.error.issues[0]?.message ?? "That does not look right." });
  const active = intersectCapabilities(BUSINESS_CAPABILITIES, BUSINESS_CAPABILITIES);
  const profile = storefrontProfile(ctx.config.origin);
  const negotiated: Negotiated = { version: UCP_VERSION, active, profileUrl: profile, platformHandlers: {} };
  const toolCtx: ToolContext = {
    env: ctx.env,
    config: ctx.config,
    negotiated,
    meta: { profile, idempotencyKey: options.idempotencyKey },
    now: ctx.now,
    principal: ANONYMOUS,
    ...(options.handoff ? { handoff: true } : {}),
    envelope: (status = "success") => ({
      version: UCP_VERSION,
      status,
      capabilities: relevantCapabilities(active, tool.capability),
    }),
  };
  const result = await tool.run(parsed.data, toolCtx);
  if (!result.ok) return err({ kind: "protocol", error: result.error });
  const value = result.value;
  return ok(value instanceof RawJson ? (JSON.parse(value.text) as ToolPayload) : (value as ToolPayload));
}

/** The payload's messages of type error (business outcomes such as out_of_stock or not_found). */
export function errorMessages(payload: ToolPayload): Array<{ code?: string; content?: string; path?: string }> {
  const messages = Array.isArray(payload.messages) ? payload.messages : [];
  return messages.filter(
    (m): m is { code?: string; content?: string; path?: string } =>
      typeof m === "object" && m !== null && (m as { type?: unknown }).type === "error",
  );
}
