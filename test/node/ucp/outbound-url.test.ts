import { describe, expect, it } from "vitest";
import { checkOutboundUrl, NO_OUTBOUND_EXCEPTIONS, parseOutboundAllowList } from "../../../src/lib/outbound-url";

const check = (url: string, allow = NO_OUTBOUND_EXCEPTIONS) => checkOutboundUrl(url, allow);
const PRIVATE = "URL points at a private or loopback address";

describe("checkOutboundUrl accepts public https URLs", () => {
  it.each([
    "https://agent.example/profiles/shopping-agent.json",
    "https://platform.example.com:8443/ucp?x=1#frag", // non-default ports are fine
    "https://AGENT.Example./profile", // case and a trailing root dot
    "https://8.8.8.8/profile",
    "https://1.1.1.1:444/",
    "https://[2606:4700:4700::1111]/profile",
    "https://[::ffff:8.8.8.8]/", // IPv4-mapped public address
    "https://[64:ff9b::8.8.8.8]/", // NAT64 of a public address
    "https://100.128.0.1/", // just past CGNAT
    "https://172.32.0.1/", // just past 172.16/12
    "https://xn--bcher-kva.example/", // IDN
  ])("%s", (url) => {
    const result = check(url);
    expect(result.ok && result.value.href).toBe(new URL(url).href);
  });
});

describe("checkOutboundUrl refuses", () => {
  it.each([
    ["a relative URL", "/profiles/x.json", "URL is not a valid absolute URL"],
    ["garbage", "not a url", "URL is not a valid absolute URL"],
    ["an invalid IPv4 form", "https://256.1.1.1/", "URL is not a valid absolute URL"],
    ["http", "http://agent.example/p.json", "URL must use https"],
    ["another scheme", "ftp://agent.example/p.json", "URL must use https"],
    ["a data URL", "data:application/json,{}", "URL must use https"],
    ["a username", "https://user@agent.example/p.json", "URL must not carry credentials"],
    ["user and password", "https://user:pass@agent.example/p.json", "URL must not carry credentials"],
    ["a password only", "https://:pass@agent.example/p.json", "URL must not carry credentials"],
    ["a single-label host", "https://intranet/p.json", "URL host must be a fully qualified domain name"],
    ["a single label with a root dot", "https://intranet./p.json", "URL host must be a fully qualified domain name"],
    ["localhost", "https://localhost/p.json", PRIVATE],
  ])("%s", (_, url, message) => {
    expect(check(url)).toEqual({ ok: false, error: message });
  });

  it.each([
    // names that only resolve locally
    "https://api.localhost/",
    "https://a.b.localhost./",
    "https://%6c%6fcalhost.localhost/", // percent-encoded host
    "https://printer.local/",
    "https://metadata.google.internal/",
    "https://router.home.arpa/",
    // IPv4 literals in special-purpose ranges
    "https://127.0.0.1/",
    "https://127.255.255.254:8443/",
    "https://10.0.0.1/",
    "https://172.16.0.1/",
    "https://172.31.255.255/",
    "https://192.168.1.1/",
    "https://169.254.169.254/latest/meta-data/",
    "https://100.64.0.1/",
    "https://100.127.255.255/",
    "https://0.0.0.0/",
    "https://0.1.2.3/",
    "https://192.0.0.8/",
    "https://192.0.2.1/",
    "https://198.18.0.1/",
    "https://198.19.255.255/",
    "https://198.51.100.7/",
    "https://203.0.113.9/",
    "https://192.88.99.1/",
    "https://224.0.0.1/",
    "https://239.255.255.250/",
    "https://240.0.0.1/",
    "https://255.255.255.255/",
    // the odd IPv4 spellings WHATWG URL turns into dotted quads
    "https://2130706433/", // decimal
    "https://0x7f000001/", // hex
    "https://0177.0.0.1/", // octal
    "https://017700000001/", // octal, one part
    "https://127.1/", // short form
    "https://0x7f.1/", // mixed
    "https://10.1/",
    "https://0/",
    "https://0x/",
    "https://127.0.0.1./", // trailing dot
    "https://0xa9.0xfe.0xa9.0xfe/", // 169.254.169.254 in hex
    "https://3232235777/", // 192.168.1.1
    // IPv6 literals
    "https://[::1]/",
    "https://[0:0:0:0:0:0:0:1]/",
    "https://[::]/",
    "https://[fc00::1]/",
    "https://[fd12:3456:789a::1]/",
    "https://[fe80::1]/",
    "https://[febf::1]/",
    "https://[fec0::1]/", // site-local
    "https://[ff02::1]/",
    "https://[100::1]/", // discard-only
    "https://[2001:db8::1]/",
    "https://[3fff::1]/",
    "https://[2001::1]/", // Teredo
    "https://[2002:7f00:1::]/", // 6to4
    "https://[::ffff:127.0.0.1]/", // IPv4-mapped
    "https://[::ffff:7f00:1]/",
    "https://[::ffff:10.0.0.1]/",
    "https://[::ffff:169.254.169.254]/",
    "https://[::ffff:0:10.0.0.1]/", // IPv4-translated
    "https://[::127.0.0.1]/", // IPv4-compatible (deprecated)
    "https://[64:ff9b::127.0.0.1]/", // NAT64 of loopback
    "https://[64:ff9b::a00:1]/", // NAT64 of 10.0.0.1
    "https://[64:ff9b:1::1]/", // local-use NAT64
  ])("%s", (url) => {
    expect(check(url)).toEqual({ ok: false, error: PRIVATE });
  });

  it("refuses localhost however it is spelled", () => {
    for (const url of [
      "https://LOCALHOST/",
      "https://localhost./",
      "https://%6c%6fcalhost/",
      "https://ｌｏｃａｌｈｏｓｔ/",
    ]) {
      expect(check(url).ok, url).toBe(false);
    }
  });
});

describe("the OUTBOUND_ALLOW exception", () => {
  const dev = parseOutboundAllowList(" http://localhost:* , http://127.0.0.1:8788,https://[::1]");

  it("parses origins with a port, a port wildcard or the default port", () => {
    expect(dev).toEqual([
      { protocol: "http:", hostname: "localhost", port: "*" },
      { protocol: "http:", hostname: "127.0.0.1", port: "8788" },
      { protocol: "https:", hostname: "[::1]", port: "" },
    ]);
    expect(parseOutboundAllowList("http://127.1:80,HTTP://LocalHost:443")).toEqual([
      { protocol: "http:", hostname: "127.0.0.1", port: "" },
      { protocol: "http:", hostname: "localhost", port: "443" },
    ]);
  });

  it("drops entries that do not parse, so a typo never widens it", () => {
    for (const raw of [
      undefined,
      "",
      "*",
      "localhost:*",
      "http://*",
      "http://localhost/path",
      "http://localhost:99999",
    ]) {
      expect(parseOutboundAllowList(raw), String(raw)).toEqual([]);
    }
    expect(parseOutboundAllowList("nonsense,http://localhost:8787")).toHaveLength(1);
  });

  it.each([
    "http://localhost/p.json",
    "http://localhost:8787/profiles/dev.json",
    "http://localhost:1/",
    "http://127.0.0.1:8788/p",
    "http://2130706433:8788/p", // the same origin, spelled oddly
    "https://[::1]/p",
    "https://[0::1]:443/p",
  ])("allows %s", (url) => {
    expect(check(url, dev).ok).toBe(true);
  });

  it.each([
    ["another scheme on an allowed host", "https://localhost:8787/"],
    ["another port than the one listed", "http://127.0.0.1:8789/"],
    ["the default port when one is listed", "http://127.0.0.1/"],
    ["another loopback address", "http://127.0.0.2:8788/"],
    ["a subdomain of an allowed host", "http://evil.localhost:8787/"],
    ["a host that merely starts with it", "http://localhost.evil.example/"],
    ["http to a public host", "http://agent.example/"],
    ["a private address", "http://10.0.0.1:8787/"],
    ["an allowed port on another address", "https://[::2]/"],
  ])("does not open %s", (_, url) => {
    expect(check(url, dev).ok).toBe(false);
  });

  it("still refuses credentials on an allowed origin", () => {
    expect(check("http://user:pw@localhost:8787/", dev)).toEqual({
      ok: false,
      error: "URL must not carry credentials",
    });
  });
});
