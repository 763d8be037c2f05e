/**
 * JWK handling for UCP message signatures (spec-digest §1.7, §10.3): EC P-256 (ES256,
 * required) and P-384 (ES384, optional). The algorithm is derived from the key's curve,
 * never from the message. Imported CryptoKeys are cached per isolate because verification
 * runs on every signed request. This module never logs or echoes private key material.
 */
import { Lru } from "../lib/lru";
import { err, ok, type Result } from "../lib/result";
import { quote } from "./structured-fields";

export type SigningAlg = "ES256" | "ES384";
export type SigningCurve = "P-256" | "P-384";

export interface CurveSpec {
  readonly alg: SigningAlg;
  readonly hash: "SHA-256" | "SHA-384";
  /** Raw r‖s width: UCP requires fixed-width signatures, not DER. */
  readonly signatureBytes: number;
  /** The RFC 9421 registry name a signer may put in an `alg` parameter. */
  readonly httpSigAlg: string;
  readonly coordinateChars: number;
}

const CURVES: Readonly<Record<SigningCurve, CurveSpec>> = {
  "P-256": { alg: "ES256", hash: "SHA-256", signatureBytes: 64, httpSigAlg: "ecdsa-p256-sha256", coordinateChars: 43 },
  "P-384": { alg: "ES384", hash: "SHA-384", signatureBytes: 96, httpSigAlg: "ecdsa-p384-sha384", coordinateChars: 64 },
};
const ALG_CURVE: Readonly<Record<SigningAlg, SigningCurve>> = { ES256: "P-256", ES384: "P-384" };

/** RFC 9421 `alg` parameter values we accept (each must still match the key's curve). */
export const HTTP_SIG_ALGS: readonly string[] = Object.values(CURVES).map((c) => c.httpSigAlg);

export interface VerifyKey extends CurveSpec {
  readonly key: CryptoKey;
}
export interface SigningKey {
  readonly kid: string;
  readonly alg: SigningAlg;
  readonly privateKey: CryptoKey;
  readonly publicJwk: PublicSigningJwk;
}
export interface PublicSigningJwk {
  readonly kid: string;
  readonly kty: "EC";
  readonly crv: SigningCurve;
  readonly x: string;
  readonly y: string;
  readonly use: "sig";
  readonly alg: SigningAlg;
}
export interface PrivateSigningJwk extends Omit<PublicSigningJwk, "use"> {
  readonly d: string;
}
export interface KeyFailure {
  readonly code: "algorithm_unsupported";
  readonly content: string;
}

interface EcFields {
  readonly kid?: string;
  readonly crv: SigningCurve;
  readonly x: string;
  readonly y: string;
  readonly d?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const unsupported = (content: string): Result<never, KeyFailure> => err({ code: "algorithm_unsupported", content });

/** Shape checks shared by public and private JWKs; WebCrypto import then checks the point. */
function readEcJwk(jwk: unknown): Result<EcFields, KeyFailure> {
  if (typeof jwk !== "object" || jwk === null) return unsupported("Signing key is not a JWK object");
  const o = jwk as Record<string, unknown>;
  const kid = str(o.kid);
  const name = kid === undefined ? "Signing key" : `Signing key kid=${quote(kid, 60)}`;
  const kty = str(o.kty) ?? "none";
  const crv = str(o.crv) ?? "none";
  if (kty !== "EC")
    return unsupported(`${name} has kty=${quote(kty, 10)}; only EC P-256 (ES256) and P-384 (ES384) keys are supported`);
  if (crv !== "P-256" && crv !== "P-384")
    return unsupported(`${name} has crv=${quote(crv, 10)}; only P-256 (ES256) and P-384 (ES384) are supported`);
  const spec = CURVES[crv];
  const x = str(o.x);
  const y = str(o.y);
  if (x?.length !== spec.coordinateChars || y?.length !== spec.coordinateChars)
    return unsupported(
      `${name} is not a valid ${crv} public key (x and y must be ${spec.coordinateChars} base64url chars)`,
    );
  if (o.alg !== undefined && o.alg !== spec.alg)
    return unsupported(`${name} declares alg=${quote(String(o.alg), 10)} but its curve ${crv} means ${spec.alg}`);
  if (o.use !== undefined && o.use !== "sig") return unsupported(`${name} is not a signing key (use must be "sig")`);
  return ok({ kid, crv, x, y, d: str(o.d) });
}

const verifyCache = new Lru<string, VerifyKey>(256);
// Keyed by the merchant's own key material: a handful at most (current and next key).
const signingCache = new Lru<string, SigningKey>(8);

/** Imports a public JWK (from a profile's `signing_keys`) for ECDSA verification. */
export async function importVerifyKey(jwk: JsonWebKey): Promise<Result<VerifyKey, KeyFailure>> {
  const fields = readEcJwk(jwk);
  if (!fields.ok) return fields;
  const { crv, x, y, kid } = fields.value;
  // Keyed by the key material (curve and point), not kid: kids are chosen by other parties.
  const cacheKey = `${crv}.${x}.${y}`;
  const hit = verifyCache.get(cacheKey);
  if (hit) return ok(hit);
  try {
    const key = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv, x, y, ext: true },
      { name: "ECDSA", namedCurve: crv },
      false,
      ["verify"],
    );
    return ok(verifyCache.set(cacheKey, { ...CURVES[crv], key }));
  } catch {
    const name = kid === undefined ? "Signing key" : `Signing key kid=${quote(kid, 60)}`;
    return unsupported(`${name} is not a valid ${crv} public key (point rejected)`);
  }
}

/** The public half of a private signing JWK, shaped for a profile's `signing_keys`. */
export function publicJwkOf(privateJwk: JsonWebKey & { readonly kid: string }): Result<PublicSigningJwk, KeyFailure> {
  const fields = readEcJwk(privateJwk);
  if (!fields.ok) return fields;
  const { crv, x, y } = fields.value;
  return ok({ kid: privateJwk.kid, kty: "EC", crv, x, y, use: "sig", alg: CURVES[crv].alg });
}

/**
 * Imports the private signing JWK (a JSON secret carrying its own `kid`). Failures describe
 * the problem without quoting the secret.
 */
export async function importSigningKey(privateJwkJson: string): Promise<Result<SigningKey, KeyFailure>> {
  const hit = signingCache.get(privateJwkJson);
  if (hit) return ok(hit);
  let parsed: unknown;
  try {
    parsed = JSON.parse(privateJwkJson);
  } catch {
    // The parser's message can quote the input, which here is a secret.
    return unsupported("Signing key is not valid JSON");
  }
  const fields = readEcJwk(parsed);
  if (!fields.ok) return fields;
  const { kid, crv, x, y, d } = fields.value;
  if (kid === undefined) return unsupported("Signing key has no kid");
  if (d === undefined) return unsupported(`Signing key kid=${quote(kid, 60)} has no private part (d)`);
  try {
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv, x, y, d, ext: false },
      { name: "ECDSA", namedCurve: crv },
      false,
      ["sign"],
    );
    const alg = CURVES[crv].alg;
    const publicJwk: PublicSigningJwk = { kid, kty: "EC", crv, x, y, use: "sig", alg };
    return ok(signingCache.set(privateJwkJson, { kid, alg, privateKey, publicJwk }));
  } catch {
    return unsupported(`Signing key kid=${quote(kid, 60)} is not a valid ${crv} private key`);
  }
}

/** The hash and signature width for a signing key's algorithm. */
export function curveOf(alg: SigningAlg): CurveSpec {
  return CURVES[ALG_CURVE[alg]];
}

/** Generates a fresh key pair (for scripts and tests); the private JWK is what `importSigningKey` takes. */
export async function generateSigningKeyPair(
  kid: string,
  crv: SigningCurve = "P-256",
): Promise<{ privateJwk: PrivateSigningJwk; publicJwk: PublicSigningJwk }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: crv }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const exported = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const { x, y, d } = exported;
  if (x === undefined || y === undefined || d === undefined) throw new Error("WebCrypto exported an incomplete EC JWK");
  const alg = CURVES[crv].alg;
  return {
    privateJwk: { kid, kty: "EC", crv, x, y, d, alg },
    publicJwk: { kid, kty: "EC", crv, x, y, use: "sig", alg },
  };
}
