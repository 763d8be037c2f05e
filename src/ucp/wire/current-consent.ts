/**
 * Buyer consent at 2026-08-25 (buyer_consent.json, #451): a map of reverse-domain purposes,
 * each `{granted, source, description}`, where the model keeps 2026-04-08's four booleans
 * (spec-digest-2026-08-25 §2.9 [Rec]). We support exactly the four well-known purposes and
 * advertise all of them on every response (a purpose the platform never set reads as the
 * store's default: not granted, source `business`); `sale_of_data` is
 * `dev.ucp.consent.sale_or_sharing`. Purposes and segments we never advertised are ignored.
 */
import type { Json } from "./tool-wire";

const PURPOSES = [
  ["analytics", "dev.ucp.consent.analytics", "Site analytics and performance measurement"],
  ["marketing", "dev.ucp.consent.marketing", "Promotional communications from the store"],
  ["preferences", "dev.ucp.consent.preferences", "Remembering the buyer's preferences, such as language and region"],
  ["sale_of_data", "dev.ucp.consent.sale_or_sharing", "Sale or sharing of personal data with third parties"],
] as const;

/** The model's booleans as the purpose map (the complete set, always). */
export function consentOut(consent: unknown): Json {
  const model = isObject(consent) ? consent : {};
  return Object.fromEntries(
    PURPOSES.map(([field, purpose, description]) => {
      const granted = model[field];
      return [
        purpose,
        typeof granted === "boolean"
          ? { granted, source: "platform", description }
          : { granted: false, source: "business", description },
      ];
    }),
  );
}

/**
 * A request's consent as the model's booleans: the purpose map read per advertised purpose
 * (a `granted` the platform sent), a 2026-04-08 boolean object kept as it is (tolerant reader).
 */
export function consentIn(consent: unknown): unknown {
  if (!isObject(consent)) return consent;
  const isMap = Object.keys(consent).some((key) => key.includes("."));
  if (!isMap) return consent;
  const out: Json = {};
  for (const [field, purpose] of PURPOSES) {
    const decision = consent[purpose];
    if (isObject(decision) && typeof decision.granted === "boolean") out[field] = decision.granted;
  }
  return out;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
