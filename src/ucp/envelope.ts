/**
 * The `ucp` object every response carries. Protocol vocabulary, so it lives in src/ucp/:
 * domain code (e.g. src/cart/cart-view.ts) builds payloads with it without importing the
 * tool layer.
 */
export interface UcpEnvelope {
  version: string;
  status: "success" | "error";
  capabilities: Record<string, Array<{ version: string }>>;
}
