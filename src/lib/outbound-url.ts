/**
 * The one guard for URLs the Worker fetches on a platform's say-so (profiles, order
 * webhooks): absolute https, no credentials, no IP literal outside public unicast, no
 * local-only names. It sees only the URL: the Worker cannot resolve DNS, so a public name
 * that resolves to a private address is not caught here (Cloudflare's edge fetch does not
 * reach private networks). The allow-list is the local-development exception only.
 */
import { err, ok, type Result } from "./result";

/** One allowed origin: scheme + exact hostname + exact port ("" = scheme default) or any. */
export interface OutboundOrigin {
  readonly protocol: "http:" | "https:";
  readonly hostname: string;
  readonly port: string;
}
export type OutboundAllowList = readonly OutboundOrigin[];
export const NO_OUTBOUND_EXCEPTIONS: OutboundAllowList = [];

const ANY_PORT = "*";
const ALLOW_ENTRY = /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}|\*))?\/?$/i;

/**
 * Parses OUTBOUND_ALLOW (`http://localhost:*,http://127.0.0.1:8788`). Entries that do not
 * parse are dropped: a typo must narrow the exception, never widen it.
 */
export function parseOutboundAllowList(raw: string | undefined): OutboundAllowList {
  const out: OutboundOrigin[] = [];
  for (const entry of (raw ?? "").split(",")) {
    const match = ALLOW_ENTRY.exec(entry.trim());
    if (!match?.[1] || !match[2]) continue;
    const protocol = match[1].toLowerCase() === "https" ? "https:" : "http:";
    let base: URL;
    try {
      // Normalizes the host the way request URLs are normalized (127.1, IPv6 forms, case).
      base = new URL(`${protocol}//${match[2]}`);
    } catch {
      continue;
    }
    const port = match[3] === ANY_PORT ? ANY_PORT : normalizedPort(protocol, match[3]);
    if (port !== undefined) out.push({ protocol, hostname: base.hostname, port });
  }
  return out;
}

function normalizedPort(protocol: string, port: string | undefined): string | undefined {
  if (port === undefined) return "";
  const n = Number(port);
  if (n > 65535) return undefined;
  return n === (protocol === "https:" ? 443 : 80) ? "" : String(n);
}

function allowed(url: URL, allow: OutboundAllowList): boolean {
  return allow.some(
    (o) => o.protocol === url.protocol && o.hostname === url.hostname && (o.port === ANY_PORT || o.port === url.port),
  );
}

/** Checks a URL before any fetch; the error is a sentence starting with "URL". */
export function checkOutboundUrl(value: string, allow: OutboundAllowList): Result<URL, string> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return err("URL is not a valid absolute URL");
  }
  if (url.username !== "" || url.password !== "") return err("URL must not carry credentials");
  if (allowed(url, allow)) return ok(url);
  if (url.protocol !== "https:") return err("URL must use https");
  const refusal = hostRefusal(url.hostname);
  return refusal === undefined ? ok(url) : err(refusal);
}

const PRIVATE = "URL points at a private or loopback address";

function hostRefusal(hostname: string): string | undefined {
  if (hostname.startsWith("[")) {
    const addr = parseIpv6(hostname.slice(1, -1));
    return addr === undefined || !publicIpv6(addr) ? PRIVATE : undefined;
  }
  // WHATWG URL turns every host that ends in a number (2130706433, 0x7f.1, 0177.0.0.1)
  // into a dotted quad or rejects it, so this shape is the only IPv4 form left.
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  if (v4) return publicIpv4(v4.slice(1).reduce((acc, part) => acc * 256 + Number(part), 0)) ? undefined : PRIVATE;
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (LOCAL_SUFFIXES.some((s) => name === s.slice(1) || name.endsWith(s))) return PRIVATE;
  if (!name.includes(".")) return "URL host must be a fully qualified domain name";
  return undefined;
}

// localhost (RFC 6761) plus names that only ever resolve inside a private network.
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa"];

/** [prefix, bits] of IANA special-purpose IPv4 blocks: nothing behind them is a public web server. */
const IPV4_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];
const IPV4_RANGES = IPV4_BLOCKED.map(([prefix, bits]) => {
  const base = prefix.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
  return { base: base >>> (32 - bits), bits };
});

function publicIpv4(addr: number): boolean {
  return !IPV4_RANGES.some(({ base, bits }) => addr >>> (32 - bits) === base);
}

/** [prefix, bits] inside 2000::/3 (global unicast) that are still not the public internet. */
const IPV6_BLOCKED: ReadonlyArray<readonly [bigint, number]> = [
  [0x2001n << 112n, 23], // IETF protocol assignments: Teredo, ORCHID, ...
  [0x20010db8n << 96n, 32], // documentation
  [0x2002n << 112n, 16], // 6to4 tunnels to any IPv4 address
  [0x3fffn << 112n, 20], // documentation (RFC 9637)
];
/** Prefixes whose low 32 bits are an IPv4 address, judged by the IPv4 rules. */
const IPV6_EMBEDS_V4: ReadonlyArray<readonly [bigint, number]> = [
  [0xffffn << 32n, 96], // ::ffff:a.b.c.d IPv4-mapped
  [0xffffn << 48n, 96], // ::ffff:0:a.b.c.d IPv4-translated
  [0x0064ff9bn << 96n, 96], // 64:ff9b::/96 NAT64
];

function inPrefix(addr: bigint, [prefix, bits]: readonly [bigint, number]): boolean {
  const shift = BigInt(128 - bits);
  return addr >> shift === prefix >> shift;
}

function publicIpv6(addr: bigint): boolean {
  if (IPV6_EMBEDS_V4.some((p) => inPrefix(addr, p))) return publicIpv4(Number(addr & 0xffffffffn));
  // Outside 2000::/3 sits only loopback, unspecified, ULA, link-local, multicast and reserved space.
  if (!inPrefix(addr, [0x2000n << 112n, 3])) return false;
  return !IPV6_BLOCKED.some((p) => inPrefix(addr, p));
}

/** Parses a bracket-less IPv6 literal (as WHATWG URL serializes it) to 128 bits. */
function parseIpv6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const out: number[] = [];
    for (const part of half.split(":")) {
      if (part.includes(".")) {
        const quad = part.split(".").map(Number);
        if (quad.length !== 4 || quad.some((n) => !(n >= 0 && n <= 255))) return undefined;
        const [a = 0, b = 0, c = 0, d = 0] = quad;
        out.push(a * 256 + b, c * 256 + d);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) out.push(Number.parseInt(part, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (!head || !tail) return undefined;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  return [...head, ...Array<number>(fill).fill(0), ...tail].reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}
