/**
 * HMAC-SHA-256 signing keys imported once per isolate. A deployment has a few (one per secret
 * and purpose); the bound matters only to tests that use many secrets. The caller's `material`
 * names the purpose (`ucp-worker csrf\0<secret>`), so two purposes never share a key.
 */
import { Lru } from "./lru";

const keys = new Lru<string, Promise<CryptoKey>>(16);

export function hmacKey(material: string): Promise<CryptoKey> {
  return (
    keys.get(material) ??
    keys.set(
      material,
      crypto.subtle.importKey("raw", new TextEncoder().encode(material), { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]),
    )
  );
}
