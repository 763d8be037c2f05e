/** The request log line's path (src/lib/log.ts pathOf): what `new URL(url).pathname` gives, without the parse. */
import { describe, expect, it } from "vitest";
import { loggedPath, pathOf } from "../../src/lib/log";

const SENT = [
  "http://127.0.0.1:8787/ucp/checkout-sessions",
  "https://shop.example.com/ucp/checkout-sessions/chk_abc/complete?x=1&y=/z",
  "https://shop.example.com",
  "https://shop.example.com/?q=/a#/b",
  "https://shop.example.com/#frag/with/slashes",
  "https://user:p%3Fss@shop.example.com:8443/a/b/../c/%2F?/d",
  "https://shop.example.com/products/caf\u00e9 mug?size=L",
  "http://[::1]:8787/checkout/tok_123/verify",
  "https://shop.example.com//double//slash/",
  "https://shop.example.com/a?b#c?d",
];

describe("the request log's path", () => {
  it("is the URL's pathname as the runtime serialized it", () => {
    for (const sent of SENT) {
      // Serialized as the runtime hands request.url over (a Request also refuses credentials).
      const url = new URL(sent).href;
      expect(pathOf(url), url).toBe(new URL(url).pathname);
    }
  });

  it("still hides hand-off tokens", () => {
    expect(loggedPath(pathOf(new Request("https://shop.example.com/checkout/sealed-token/verify?a=1").url))).toBe(
      "/checkout/<token>/verify",
    );
  });
});
