/**
 * The email settings: none is a store that logs its confirmations; all three is Mailgun;
 * anything in between, or a malformed value, is a named problem (and, in the Worker, still
 * only a log sender: email mistakes never stop orders).
 */
import { describe, expect, it } from "vitest";
import { emailNotice } from "../../scripts/lib/dev-launch";
import { buildConfig } from "../../src/config";
import { emailProblems, emailSetup, emailVarProblems } from "../../src/config/email";
import { outcome } from "../../src/notify/mailgun";

const FULL = {
  MAILGUN_API_KEY: "key-123",
  MAILGUN_DOMAIN: "mg.shop.example",
  EMAIL_FROM: "Demo Outfitters <orders@mg.shop.example>",
};

describe("email settings", () => {
  it("a store without any is off, with no problem to report", () => {
    expect(emailSetup({})).toEqual({ kind: "off" });
    expect(emailSetup({ MAILGUN_DOMAIN: "  " })).toEqual({ kind: "off" });
    expect(emailProblems({})).toEqual([]);
    expect(emailVarProblems({})).toEqual([]);
  });

  it("all three make a Mailgun sender on the US API by default", () => {
    expect(emailSetup(FULL)).toEqual({
      kind: "mailgun",
      settings: {
        apiKey: "key-123",
        domain: "mg.shop.example",
        from: FULL.EMAIL_FROM,
        apiBase: "https://api.mailgun.net",
      },
    });
    const eu = emailSetup({
      ...FULL,
      EMAIL_FROM: "orders@mg.shop.example",
      MAILGUN_API_BASE: "https://api.eu.mailgun.net/",
    });
    expect(eu).toMatchObject({ kind: "mailgun", settings: { apiBase: "https://api.eu.mailgun.net" } });
  });

  it("names each missing piece of a half-done setup", () => {
    const problems = emailProblems({ MAILGUN_DOMAIN: "mg.shop.example" });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^MAILGUN_API_KEY: not set;.*wrangler secret put MAILGUN_API_KEY/);
    expect(problems[1]).toMatch(/^EMAIL_FROM: not set;/);
    expect(emailProblems({ MAILGUN_API_KEY: "k" }).map((p) => p.split(":")[0])).toEqual([
      "MAILGUN_DOMAIN",
      "EMAIL_FROM",
    ]);
  });

  it("[vars] alone: the key is not expected there, and is a problem when it is", () => {
    const { MAILGUN_API_KEY: _key, ...vars } = FULL;
    expect(emailVarProblems(vars)).toEqual([]);
    expect(emailVarProblems({ MAILGUN_DOMAIN: "mg.shop.example" })).toEqual([
      expect.stringMatching(/^EMAIL_FROM: not set;/),
    ]);
    expect(emailVarProblems(FULL)).toEqual([expect.stringMatching(/^MAILGUN_API_KEY: a secret, not a var/)]);
  });

  it("refuses a From that is not one header-safe mailbox", () => {
    for (const from of [
      "Demo Outfitters",
      "orders@",
      "Shop <orders@mg.shop.example",
      "a@b.example\r\nBcc: x@y.example",
    ]) {
      expect(emailProblems({ ...FULL, EMAIL_FROM: from }), from).toEqual([
        expect.stringMatching(/^EMAIL_FROM: expected "Store Name <orders@your-domain>"/),
      ]);
    }
  });

  it("refuses a bad domain and an API base that is not an https origin", () => {
    expect(emailProblems({ ...FULL, MAILGUN_DOMAIN: "https://mg.shop.example" })).toEqual([
      expect.stringMatching(/^MAILGUN_DOMAIN: expected the sending domain/),
    ]);
    for (const base of ["api.mailgun.net", "http://api.mailgun.net", "https://api.mailgun.net/v3", "ftp://x.example"]) {
      expect(emailProblems({ ...FULL, MAILGUN_API_BASE: base }), base).toEqual([
        expect.stringMatching(/^MAILGUN_API_BASE: expected an https origin/),
      ]);
    }
    // A receiver on this machine (the end-to-end test's) may be plain http.
    expect(emailProblems({ ...FULL, MAILGUN_API_BASE: "http://127.0.0.1:9100" })).toEqual([]);
  });

  it("a misconfigured store still builds its config (email is never a reason to stop)", () => {
    const config = buildConfig({ MAILGUN_DOMAIN: "mg.shop.example", EMAIL_RETRY_BASE_SECONDS: "1" });
    expect(config.email.kind).toBe("invalid");
    expect(config.emailRetry.firstDelayMs).toBe(1000);
    expect(buildConfig({}).emailRetry.firstDelayMs).toBe(30_000);
  });

  it("retries what Mailgun may take later, gives up on what it refuses", () => {
    expect(outcome(200)).toEqual({ ok: true });
    for (const status of [408, 429, 500, 502, 503]) expect(outcome(status), String(status)).toEqual({ ok: false });
    for (const status of [400, 401, 403, 404, 413])
      expect(outcome(status), String(status)).toEqual({ ok: false, permanent: true });
  });

  it("npm start says in one line whether confirmations are sent, and how to turn them on", () => {
    expect(emailNotice(emailSetup({}))).toBe(
      "email: not configured — confirmations are logged, not sent (set MAILGUN_API_KEY, MAILGUN_DOMAIN, EMAIL_FROM: docs/email.md)",
    );
    expect(emailNotice(emailSetup({ MAILGUN_DOMAIN: "mg.shop.example" }))).toMatch(
      /^email: misconfigured — confirmations are held and retried, not sent: MAILGUN_API_KEY: not set;.*\(docs\/email\.md\)$/,
    );
    expect(emailNotice(emailSetup(FULL))).toBe(
      "email: confirmations sent through Mailgun (https://api.mailgun.net, domain mg.shop.example) from Demo Outfitters <orders@mg.shop.example>",
    );
  });
});
