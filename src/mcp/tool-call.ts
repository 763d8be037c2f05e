/**
 * Runs one tool call: profile URL form, arguments, negotiation, capability gate, then the
 * tool. Cheap checks come first so malformed calls never cost a profile fetch.
 */
import type * as z from "zod";
import type { MerchantConfig } from "../config";
import { toJsonPath } from "../lib/json-path";
import { err, ok, type Result } from "../lib/result";
import type { ToolDefinition, UcpEnvelope, UcpPayload } from "../tools/types";
import { invalidParams, type ProtocolError } from "../ucp/errors";
import { relevantCapabilities } from "../ucp/negotiate";
import { negotiate, profileUrl } from "../ucp/negotiation";
import type { NormalizedCall } from "./normalize";

export async function callTool(
  tool: ToolDefinition,
  call: NormalizedCall,
  env: Env,
  config: MerchantConfig,
  now: number,
): Promise<Result<UcpPayload, ProtocolError>> {
  const url = profileUrl(call.profile, config);
  if (!url.ok) return url;
  const key = call.idempotencyKey;
  if (key !== undefined && (typeof key !== "string" || key.length === 0 || key.length > 255)) {
    return err(invalidParams('meta["idempotency-key"] must be a non-empty string of at most 255 characters'));
  }
  if (tool.idempotencyKeyRequired && key === undefined) {
    return err(invalidParams(`${tool.name} requires meta["idempotency-key"]`, { path: '$.meta["idempotency-key"]' }));
  }
  const parsed = tool.input.safeParse(call.args);
  if (!parsed.success) return err(invalidArguments(tool.name, parsed.error));

  const negotiated = await negotiate(url.value, config, now);
  if (!negotiated.ok) return negotiated;
  const { version, active } = negotiated.value;
  if (!active.has(tool.capability)) return ok(capabilitiesIncompatible(version, tool.capability, config.origin));

  const envelope = (status: "success" | "error" = "success"): UcpEnvelope => ({
    version,
    status,
    capabilities: relevantCapabilities(active, tool.capability),
  });
  const meta = { profile: url.value.href, idempotencyKey: key as string | undefined };
  return tool.run(parsed.data, { env, config, negotiated: negotiated.value, meta, now, envelope });
}

function invalidArguments(toolName: string, error: z.ZodError): ProtocolError {
  const issues = error.issues.slice(0, 20).map((issue) => ({ path: toJsonPath(issue.path), message: issue.message }));
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid arguments";
  return invalidParams(`Invalid arguments for ${toolName}: ${summary}`, { issues });
}

/** Negotiation left out the capability this tool needs: a UCP error response, not a JSON-RPC error. */
function capabilitiesIncompatible(version: string, capability: string, continueUrl: string): UcpPayload {
  return {
    ucp: { version, status: "error", capabilities: {} },
    messages: [
      {
        type: "error",
        code: "capabilities_incompatible",
        content: `No mutually supported version of ${capability}`,
        severity: "unrecoverable",
      },
    ],
    continue_url: continueUrl,
  };
}
