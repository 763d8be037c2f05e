/** The `meta` argument every UCP tool call carries (mcp.openrpc.json components.schemas.meta). */
import * as z from "zod";
import { IDEMPOTENCY_KEY_MAX } from "../../src/lib/idempotency-key-rule";

export const UcpAgentSchema = z
  .looseObject({
    profile: z.url().describe("HTTPS URL of the calling platform's UCP profile."),
  })
  .describe("Identifies the calling platform.");

export function metaSchema(idempotencyRequired: boolean) {
  const key = z.string().min(1).max(IDEMPOTENCY_KEY_MAX).describe("Retry-safety key (a UUID is recommended).");
  return z
    .looseObject({
      "ucp-agent": UcpAgentSchema,
      "idempotency-key": idempotencyRequired ? key : key.optional(),
    })
    .describe("UCP request metadata.");
}
