/**
 * Runs one tool call for any transport: profile URL form, idempotency key, identity binding
 * and trust tier, argument size, arguments, negotiation, capability gate, then the tool,
 * through the wire version the platform's profile declares (src/ucp/wire/): its request read
 * into the model, the model's answer written back in its shapes. Cheap checks come first so
 * malformed or refused calls never cost a profile fetch; the tools' input schemas accept
 * every supported version's request, so they can run before the version is known.
 * Transports (src/mcp/, src/rest/) build the NormalizedCall and map the outcome to their wire.
 */
import type * as z from "zod";
import { commerceConfig } from "../checkout/merchant-commerce";
import { toJsonPath } from "../lib/json-path";
import { err, ok, type Result } from "../lib/result";
import type { ToolDefinition, UcpEnvelope, UcpPayload } from "../tools/types";
import { authError, invalidParams, type ProtocolError } from "../ucp/errors";
import { relevantCapabilities } from "../ucp/negotiate";
import { negotiate, profileUrl } from "../ucp/negotiation";
import { wireFor } from "../ucp/wire";
import { argumentsTooLarge } from "./argument-limits";
import { checkIdempotencyKey } from "./idempotency-key";
import type { RequestScope } from "./scope";

/** One tool call as every transport hands it in: metadata pulled out of the arguments, unvalidated. */
export interface NormalizedCall {
  /** The profile URL as sent (unvalidated), or undefined when none was found. */
  readonly profile: unknown;
  readonly idempotencyKey: unknown;
  /** The tool arguments without the metadata carriers. */
  readonly args: Record<string, unknown>;
  /** The `meta` object as sent, for tools that read more of it. */
  readonly meta: Record<string, unknown>;
  /** Where the idempotency key travels, for error text (default `meta["idempotency-key"]`). */
  readonly keyCarrier?: string;
}

export async function callTool(
  tool: ToolDefinition,
  call: NormalizedCall,
  scope: RequestScope,
): Promise<Result<UcpPayload, ProtocolError>> {
  const { env, config, now, principal } = scope;
  const url = profileUrl(call.profile, config);
  if (!url.ok) return url;
  const checkedKey = checkIdempotencyKey({
    tool: tool.name,
    required: tool.idempotencyKeyRequired,
    key: call.idempotencyKey,
    headers: scope.headers,
    principal,
    ...(call.keyCarrier ? { carrier: call.keyCarrier } : {}),
  });
  if (!checkedKey.ok) return checkedKey;
  const key = checkedKey.value;
  // Before argument checks: a caller the tier refuses learns that first, whatever it sent.
  const refused = checkTrust(tool, url.value.href, scope);
  if (refused) return err(refused);
  const tooLarge = argumentsTooLarge(call.args, principal);
  if (tooLarge) return err(tooLarge);
  const parsed = tool.input.safeParse(call.args);
  if (!parsed.success) return err(invalidArguments(tool.name, parsed.error));

  const negotiated = await negotiate(url.value, config, now);
  if (!negotiated.ok) return negotiated;
  const { version, active } = negotiated.value;
  if (!active.has(tool.capability)) return ok(capabilitiesIncompatible(version, tool.capability, config.origin));
  const wire = wireFor(version);
  const request = wire.request(tool.name, parsed.data, { config });
  if (!request.ok) return request;

  const envelope = (status: "success" | "error" = "success"): UcpEnvelope => ({
    version,
    status,
    capabilities: relevantCapabilities(active, tool.capability),
  });
  const meta = { profile: url.value.href, idempotencyKey: key };
  const outcome = await tool.run(request.value, {
    env,
    config,
    negotiated: negotiated.value,
    meta,
    now,
    envelope,
    principal,
  });
  if (!outcome.ok) {
    const failed = { ...outcome.error, ucp: envelope("error") };
    const answered = wire.error?.(tool.name, failed);
    return answered ? ok(answered as UcpPayload) : err(failed);
  }
  const answered = { config, request: request.value, commerce: () => commerceConfig(env) };
  return ok(wire.response(tool.name, outcome.value, answered) as UcpPayload);
}

/**
 * Identity binding (spec-digest §2.8): an authenticated caller acts only for its own
 * profile. Trust tier: tools the merchant closed to anonymous callers are refused with the
 * hand-off URL, where a human can finish instead.
 */
function checkTrust(tool: ToolDefinition, profile: string, scope: RequestScope): ProtocolError | undefined {
  const { principal, config } = scope;
  if (principal.tier === "authenticated") {
    // Both sides are URL hrefs (checkProfileUrl, authenticate), so equal strings mean one profile.
    if (profile === principal.profile) return undefined;
    const how = principal.via === "api_key" ? "This API key is" : "The signature is";
    return authError("identity_mismatch", `${how} not authorized for the profile in meta["ucp-agent"]`, {
      tier: principal.tier,
    });
  }
  if (!scope.trust.authenticatedTools.has(tool.name)) return undefined;
  // The store's origin, not the session's hand-off URL: whether this caller owns the session
  // is not known here, and a hand-off URL must only reach the session's owner.
  const handOff = config.origin;
  return authError(
    "authentication_required",
    `${tool.name} needs an authenticated platform (this request is anonymous). Sign the request (RFC 9421, key in your profile's signing_keys) or send the API key the merchant issued; or hand the buyer continue_url.`,
    { tier: "anonymous", required_tier: "authenticated", continue_url: handOff },
  );
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
