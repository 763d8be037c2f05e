/**
 * A throwaway certificate authority and a certificate it signed for localhost and 127.0.0.1,
 * made with openssl at test time (Node verifies certificates but cannot issue them). Clients
 * trust the CA through NODE_EXTRA_CA_CERTS: Node reads it at start, and Miniflare passes it
 * to workerd, so the Worker's own outbound fetches trust it too.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCertificate {
  /** PEM file of the CA, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  /** The CA itself (PEM), for a client's `ca` option. */
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  remove(): void;
}

export function opensslFound(): boolean {
  return spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0;
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"];

export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), "ucp-tls-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
  openssl(
    [
      "req",
      "-x509",
      ...EC,
      "-keyout",
      file("ca.key"),
      "-out",
      file("ca.pem"),
      "-subj",
      "/CN=ucp-worker test CA",
    ].concat(["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]),
  );
  // A leaf signed by the CA rather than one self-signed certificate: some verifiers refuse
  // a CA certificate presented as the server's own.
  openssl(
    ["req", "-x509", ...EC, "-keyout", file("key.pem"), "-out", file("cert.pem"), "-subj", "/CN=localhost"].concat(
      ["-CA", file("ca.pem"), "-CAkey", file("ca.key")],
      ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1", "-addext", "basicConstraints=critical,CA:FALSE"],
      ["-addext", "extendedKeyUsage=serverAuth"],
    ),
  );
  return {
    caFile: file("ca.pem"),
    ca: readFileSync(file("ca.pem"), "utf8"),
    cert: readFileSync(file("cert.pem"), "utf8"),
    key: readFileSync(file("key.pem"), "utf8"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
