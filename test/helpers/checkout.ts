/** Checkout calls for tests: tools/call with meta (and an idempotency key when given). */
import { expect } from "vitest";
import { FULL_PROFILE, meta, type PostOptions, rpc } from "./mcp";
import { validateCheckout } from "./official-schema";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
export type Json = any;

export const ADDRESS = {
  street_address: "123 Main St",
  address_locality: "Springfield",
  address_region: "IL",
  postal_code: "62701",
  address_country: "US",
};

export async function tool(
  name: string,
  args: Record<string, unknown>,
  key?: string,
  profile = FULL_PROFILE,
  options: PostOptions = {},
) {
  const extra = key ? { "idempotency-key": key } : {};
  return rpc("tools/call", { name, arguments: { meta: meta(profile, extra), ...args } }, undefined, options);
}

/** A successful tool call's payload, validated as a checkout (with extensions). */
export async function checkoutCall(
  name: string,
  args: Record<string, unknown>,
  key?: string,
  profile = FULL_PROFILE,
): Promise<Json> {
  const reply = await tool(name, args, key, profile);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const payload = reply.body.result?.structuredContent;
  expect(payload, JSON.stringify(reply.body)).toBeDefined();
  if (payload.ucp.status === "success") expect(validateCheckout(payload)).toEqual([]);
  return withoutTestModeNote(payload);
}

/**
 * The workerd tests run in test mode (test/vitest.config.ts), where every checkout ends with
 * the test-mode note: checked here once for every checkout, then set aside so each test
 * sees the messages its own scenario produced.
 */
export function withoutTestModeNote(payload: Json): Json {
  if (payload.ucp.status !== "success") return payload;
  const messages: Json[] = payload.messages ?? [];
  expect(messages.filter((m) => m.code === "test_mode")).toEqual([messages.at(-1)]);
  const rest = messages.slice(0, -1);
  const { messages: _note, ...others } = payload;
  return rest.length > 0 ? { ...others, messages: rest } : others;
}

export const pay = (token: string, handler = "mock_payment_handler") => ({
  payment: {
    instruments: [
      {
        id: "instr_1",
        handler_id: handler,
        type: "card",
        selected: true,
        display: { brand: "visa", last_digits: "4242" },
        credential: { type: "token", token },
      },
    ],
  },
});

/**
 * A checkout that is ready to complete: buyer email and a US shipping address. It belongs to
 * `profile` (sessions belong to their platform): complete it under the same profile.
 */
export async function readyCheckout(
  lines: Array<{ id: string; quantity: number }>,
  extra: Record<string, unknown> = {},
  profile = FULL_PROFILE,
) {
  return checkoutCall(
    "create_checkout",
    {
      checkout: {
        line_items: lines.map((l) => ({ item: { id: l.id }, quantity: l.quantity })),
        buyer: { email: "jane@example.com", first_name: "Jane" },
        fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        ...extra,
      },
    },
    undefined,
    profile,
  );
}

/** sum(non-total) === total, and line totals add up to the subtotal. */
export function expectTotalsAddUp(checkout: Json) {
  const total = checkout.totals.find((t: Json) => t.type === "total").amount;
  const rest = checkout.totals.filter((t: Json) => t.type !== "total").reduce((s: number, t: Json) => s + t.amount, 0);
  expect(rest).toBe(total);
  const subtotal = checkout.totals.find((t: Json) => t.type === "subtotal").amount;
  expect(checkout.line_items.reduce((s: number, l: Json) => s + l.item.price * l.quantity, 0)).toBe(subtotal);
}
