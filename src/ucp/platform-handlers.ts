/**
 * The store's payment handlers as one platform may use them (spec-digest §2.6: a checkout's
 * `ucp.payment_handlers` is the intersection of the platform profile's handlers and
 * instruments with the business's). Pure.
 *
 * A platform that declares no handler at all (`payment_handlers: {}`) is not filtered: the
 * store's own handlers are named under its domain, which a platform written before it knew
 * of cannot list, and the official sample profiles declare `{}` (docs/decisions/protocol.md, issue 10).
 */
import type { HandlerEntry, HandlerRegistry } from "../payment/handlers";
import type { PlatformHandlers } from "./platform-profile";

export function handlersForPlatform(store: HandlerRegistry, platform: PlatformHandlers): HandlerRegistry {
  if (Object.keys(platform).length === 0) return store;
  const out: HandlerRegistry = {};
  for (const [name, entries] of Object.entries(store)) {
    const types = platform[name];
    if (types === undefined) continue;
    const kept = entries.flatMap((entry): HandlerEntry[] => {
      if (types === null) return [entry];
      const available = entry.available_instruments.filter((a) => types.includes(a.type));
      return available.length > 0 ? [{ ...entry, available_instruments: available }] : [];
    });
    if (kept.length > 0) out[name] = kept;
  }
  return out;
}
