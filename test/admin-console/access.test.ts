/**
 * Who may use /admin (issue 13 item 1): the admin token's session cookie, a Cloudflare Access
 * JWT, or (the JSON API only) the Bearer token. Everyone else gets the same answer on every
 * path, and forged, altered or expired credentials are refused.
 */
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type CertsFetch, clearAccessKeys, verifyAccessJwt } from "../../src/admin/console/access";
import { CONSOLE_ROUTES } from "../../src/admin/console/console-router";
import { startSession } from "../../src/admin/console/session";
import { recordSession } from "../../src/admin/console/session-record";
import { handleAdmin } from "../../src/admin/router";
import { toBase64Url } from "../../src/lib/ids";
import { merchantVarProblems } from "../../src/merchant-vars";
import { ADMIN_TOKEN, anonymous, type Browser, csrfOf, ORIGIN, openPage, postForm, signIn } from "../helpers/console";
import { locationPath } from "../helpers/pages";

const COOKIE = "__Host-ucp_console";
let ipCounter = 0;
/** Each test its own client address: failed sign-ins count per address. */
const fresh = (): Browser => ({ ip: `203.0.113.${++ipCounter}` });

/** Every mounted console route, its `:params` filled in. */
const MOUNTED = CONSOLE_ROUTES.map((r): [string, string] => [r.method, r.path.replace(/:\w+/g, "x_1")]);
const CONSOLE_PAGES = [
  ...new Set([
    "/admin/",
    "/admin/orders",
    "/admin/orders/ord_abc",
    "/admin/catalog",
    "/admin/platforms",
    ...MOUNTED.filter(([m]) => m === "GET").map(([, p]) => p),
  ]),
];
const JSON_ROUTES: ReadonlyArray<[string, string]> = [
  ["GET", "/admin/orders"],
  ["GET", "/admin/orders/ord_abc"],
  ["POST", "/admin/orders/ord_abc/events"],
  ["POST", "/admin/orders/ord_abc/adjustments"],
  ["GET", "/admin/orders/ord_abc/webhooks"],
  ["POST", "/admin/orders/ord_abc/webhooks/retry"],
  ["POST", "/admin/orders/index/rebuild"],
  ["POST", "/admin/inventory/item_123"],
  ["GET", "/admin/inventory/item_123"],
  ["GET", "/admin/api-keys"],
  ["POST", "/admin/api-keys"],
  ["DELETE", "/admin/api-keys/key_abc"],
];
const NAVIGATE = { "sec-fetch-mode": "navigate", accept: "text/html" };

describe("without credentials", () => {
  it("a browser opening any console page (or an unknown one) is sent to sign in, and shown nothing", async () => {
    for (const path of [...CONSOLE_PAGES, "/admin", "/admin/no-such-page"]) {
      const res = await anonymous(path, { headers: NAVIGATE });
      expect(res.status, path).toBe(303);
      expect(locationPath(res)).toBe("/admin/sign-in");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toBe("");
    }
  });

  it("every other request to a console page or a JSON admin route is 401, the same body everywhere", async () => {
    expect(MOUNTED).toContainEqual(["GET", "/admin/"]);
    expect(MOUNTED).toContainEqual(["POST", "/admin/sign-out"]);
    const bodies = new Set<string>();
    const requests: Array<[string, string]> = [
      ...CONSOLE_PAGES.map((p): [string, string] => ["GET", p]),
      ...CONSOLE_PAGES.map((p): [string, string] => ["POST", p]),
      ...MOUNTED,
      ["GET", "/admin/no-such-page"],
      ...JSON_ROUTES,
    ];
    for (const [method, path] of requests) {
      const res = await anonymous(path, {
        method,
        ...(method === "GET" || method === "DELETE"
          ? {}
          : { body: "{}", headers: { "content-type": "application/json" } }),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get("cache-control")).toBe("no-store");
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0] as string).error).toBe("unauthorized");
  });

  it("a wrong Bearer token is 401 on the JSON API", async () => {
    const res = await anonymous("/admin/api-keys", { headers: { authorization: "Bearer not-the-token" } });
    expect(res.status).toBe(401);
  });

  it("without ADMIN_TOKEN and without Access every /admin route is 404, the sign-in page too", async () => {
    const off = { ...env, ADMIN_TOKEN: "" };
    for (const path of [...CONSOLE_PAGES, "/admin/sign-in"]) {
      const res = await handleAdmin(new Request(`${ORIGIN}${path}`, { headers: NAVIGATE }), off);
      expect(res.status, path).toBe(404);
    }
  });
});

describe("signing in with the admin token", () => {
  it("the sign-in page is a form under a strict CSP, never cached", async () => {
    const res = await anonymous("/admin/sign-in");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[\w-]+'/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = await res.text();
    expect(page).toContain('action="/admin/sign-in"');
    expect(page).toContain('type="password"');
  });

  it("the right token sets a signed, HttpOnly, SameSite=Strict, __Host- session cookie and opens the dashboard", async () => {
    const browser = fresh();
    const res = await exports.default.fetch(`${ORIGIN}/admin/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: ORIGIN,
        "cf-connecting-ip": browser.ip ?? "",
      },
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
    });
    expect(res.status).toBe(303);
    expect(locationPath(res)).toBe("/admin/");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${COOKIE}=v1\\.`));
    for (const attribute of ["HttpOnly", "SameSite=Strict", "Secure", "Path=/", "Max-Age=28800"])
      expect(cookie).toContain(attribute);
    await signIn(browser);
    const { res: page, html } = await openPage("/admin/", browser);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(html).toContain("<h1>Dashboard</h1>");
    expect(html).toContain("Test mode");
    // Signed in, the sign-in page sends the browser on to the console.
    expect(locationPath((await openPage("/admin/sign-in", browser)).res)).toBe("/admin/");
  });

  it("a wrong token is 401 and sets no cookie", async () => {
    const browser = fresh();
    const res = await postForm(
      '<form action="/admin/sign-in"></form>',
      "/admin/sign-in",
      { token: `${ADMIN_TOKEN}x` },
      browser,
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain("That is not the admin token.");
  });

  it("a sign-in body larger than a token form is 413 and not parsed", async () => {
    const res = await postForm(
      '<form action="/admin/sign-in"></form>',
      "/admin/sign-in",
      { token: ADMIN_TOKEN, padding: "x".repeat(10_000) },
      fresh(),
    );
    expect(res.status).toBe(413);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("a sign-in posted from another site is refused", async () => {
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const res = await postForm(
        '<form action="/admin/sign-in"></form>',
        "/admin/sign-in",
        { token: ADMIN_TOKEN },
        fresh(),
        headers,
      );
      expect(res.status).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("failed sign-ins are rate limited per address: past the budget even the right token waits", async () => {
    const browser = fresh();
    const form = '<form action="/admin/sign-in"></form>';
    let status = 0;
    // The test budget is 200 a minute (test/vitest.config.ts), counted in fixed windows: a
    // window ending mid-loop starts the count again, so allow two windows' worth.
    let attempts = 0;
    for (; attempts < 450 && status !== 429; attempts++)
      status = (await postForm(form, "/admin/sign-in", { token: "guess" }, browser)).status;
    expect(status).toBe(429);
    expect(attempts).toBeGreaterThan(200);
    const right = await postForm(form, "/admin/sign-in", { token: ADMIN_TOKEN }, browser);
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toBe("60");
    expect(right.headers.get("set-cookie")).toBeNull();
    // Another address is not affected.
    expect((await postForm(form, "/admin/sign-in", { token: ADMIN_TOKEN }, fresh())).status).toBe(303);
  }, 60_000);
});

describe("forged, altered and expired session cookies", () => {
  async function withCookie(value: string): Promise<number> {
    const res = await anonymous("/admin/", { headers: { cookie: `${COOKIE}=${value}` } });
    return res.status;
  }

  it("are refused like no cookie at all", async () => {
    const now = Date.now();
    const started = await startSession(ADMIN_TOKEN, now, true);
    const good = /=([^;]+)/.exec(started.setCookie)?.[1] as string;
    // A well-signed cookie whose session the store never recorded (or closed) is refused too.
    expect(await withCookie(good)).toBe(401);
    await recordSession(env, started.session.sid, started.session.exp);
    expect(await withCookie(good)).toBe(200);

    const [v, payload, mac] = good.split(".") as [string, string, string];
    const longer = toBase64Url(new TextEncoder().encode(JSON.stringify({ sid: "x", exp: now + 3600_000 })));
    const otherToken = /=([^;]+)/.exec((await startSession("another-token", now, true)).setCookie)?.[1] as string;
    const expired = /=([^;]+)/.exec(
      (await startSession(ADMIN_TOKEN, now - 9 * 3600_000, true)).setCookie,
    )?.[1] as string;
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    for (const forged of [
      "garbage",
      `${v}.${longer}.${mac}`, // altered payload, old signature
      `${v}.${payload}.${flipped}`, // altered signature
      `${v}.${payload}`,
      `v2.${payload}.${mac}`,
      otherToken, // signed under another (e.g. rotated-away) token
      expired,
    ]) {
      expect(await withCookie(forged), forged).toBe(401);
    }
    // The cookie under the name plain http uses is not read on an https store.
    const plain = await anonymous("/admin/", { headers: { cookie: `ucp_console=${good}` } });
    expect(plain.status).toBe(401);
  });
});

describe("CSRF and signing out", () => {
  it("a console POST needs this session's _csrf and the store's origin; sign-out ends the session", async () => {
    const browser = await signIn(fresh());
    const { html } = await openPage("/admin/", browser);
    const csrf = csrfOf(html);
    const badToken = await postForm(html, "/admin/sign-out", { _csrf: `${csrf.slice(0, -2)}xx` }, browser);
    expect(badToken.status).toBe(403);
    const noToken = await postForm(html, "/admin/sign-out", { _csrf: "" }, browser);
    expect(noToken.status).toBe(403);
    const crossSite = await postForm(html, "/admin/sign-out", {}, browser, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    // Another session's token does not fit this one.
    const other = await signIn(fresh());
    const otherCsrf = csrfOf((await openPage("/admin/", other)).html);
    expect(otherCsrf).not.toBe(csrf);
    expect((await postForm(html, "/admin/sign-out", { _csrf: otherCsrf }, browser)).status).toBe(403);
    // Chromium sends Origin: null on a same-origin form post under no-referrer: the token decides.
    const out = await postForm(html, "/admin/sign-out", {}, browser, { origin: "null" });
    expect(out.status).toBe(303);
    expect(locationPath(out)).toBe("/admin/sign-in");
    expect(out.headers.get("set-cookie")).toMatch(new RegExp(`^${COOKIE}=;.*Max-Age=0`));
    expect(browser.cookie ?? "").not.toContain(COOKIE);
    expect((await openPage("/admin/", browser)).res.status).toBe(401);
  });

  it("the JSON API keeps answering the Bearer token, with or without a session", async () => {
    const res = await anonymous("/admin/api-keys", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
  });
});

// --- Cloudflare Access -------------------------------------------------------------------

const TEAM = "https://acme.cloudflareaccess.com";
const AUD = "aud-tag-0123456789abcdef";
const SETTINGS = { teamDomain: TEAM, audience: AUD };

interface SigningKey {
  readonly kid: string;
  readonly pair: CryptoKeyPair;
}

async function newKey(kid: string): Promise<SigningKey> {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  return { kid, pair };
}

async function jwks(keys: readonly SigningKey[]): Promise<unknown> {
  const out = [];
  for (const k of keys) {
    const jwk = (await crypto.subtle.exportKey("jwk", k.pair.publicKey)) as JsonWebKey;
    out.push({ kty: "RSA", alg: "RS256", use: "sig", kid: k.kid, n: jwk.n, e: jwk.e });
  }
  return { keys: out };
}

const b64 = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));

async function jwt(
  key: SigningKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const signingInput = `${b64({ alg: "RS256", kid: key.kid, typ: "JWT", ...header })}.${b64(claims)}`;
  const sig = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    key.pair.privateKey,
    new TextEncoder().encode(signingInput),
  );
  return `${signingInput}.${toBase64Url(new Uint8Array(sig))}`;
}

function claims(now: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const s = Math.floor(now / 1000);
  return {
    aud: [AUD],
    iss: TEAM,
    sub: "user-1",
    email: "owner@shop.example.com",
    iat: s,
    nbf: s,
    exp: s + 3600,
    ...extra,
  };
}

/** A stand-in for the team's certs endpoint, counting fetches. */
function certsServer(body: () => Promise<unknown>): CertsFetch & { calls: string[] } {
  const calls: string[] = [];
  const fetcher = async (url: string) => {
    calls.push(url);
    return Response.json(await body());
  };
  return Object.assign(fetcher, { calls });
}

describe("Cloudflare Access JWT", () => {
  let key: SigningKey;
  let other: SigningKey;
  beforeEach(async () => {
    clearAccessKeys();
    key = await newKey("kid-1");
    other = await newKey("kid-2");
  });

  it("a JWT signed by the team's key for this application is accepted; the certs are fetched once", async () => {
    const now = Date.now();
    const certs = certsServer(() => jwks([key]));
    expect(await verifyAccessJwt(await jwt(key, claims(now)), SETTINGS, now, certs)).toEqual({
      email: "owner@shop.example.com",
      sub: "user-1",
    });
    expect(certs.calls).toEqual([`${TEAM}/cdn-cgi/access/certs`]);
    expect(await verifyAccessJwt(await jwt(key, claims(now, { aud: AUD })), SETTINGS, now + 1000, certs)).toBeDefined();
    expect(certs.calls).toHaveLength(1);
    // A service token has no email: its client id names it.
    const service = claims(now, { email: undefined, common_name: "ci.access" });
    expect((await verifyAccessJwt(await jwt(key, service), SETTINGS, now, certs))?.email).toBe("ci.access");
  });

  it("another audience, another issuer, another key, expired, not yet valid or not RS256 is refused", async () => {
    const now = Date.now();
    const certs = certsServer(() => jwks([key]));
    const s = Math.floor(now / 1000);
    const impostor = { kid: "kid-1", pair: other.pair }; // the team's kid, someone else's key
    const cases: Array<[string, Promise<string>]> = [
      ["other aud", jwt(key, claims(now, { aud: ["someone-else"] }))],
      ["no aud", jwt(key, claims(now, { aud: undefined }))],
      ["other iss", jwt(key, claims(now, { iss: "https://evil.cloudflareaccess.com" }))],
      ["wrong key", jwt(impostor, claims(now))],
      ["expired", jwt(key, claims(now, { exp: s - 120 }))],
      ["no exp", jwt(key, claims(now, { exp: undefined }))],
      ["not yet valid", jwt(key, claims(now, { nbf: s + 600 }))],
      ["HS256", jwt(key, claims(now), { alg: "HS256" })],
      ["none", Promise.resolve(`${b64({ alg: "none", kid: "kid-1" })}.${b64(claims(now))}.`)],
      ["malformed", Promise.resolve("not.a.jwt")],
    ];
    for (const [name, token] of cases) {
      expect(await verifyAccessJwt(await token, SETTINGS, now, certs), name).toBeUndefined();
    }
    // Within the leeway a just-expired token still passes (clock skew between edge and Worker).
    expect(await verifyAccessJwt(await jwt(key, claims(now, { exp: s - 30 })), SETTINGS, now, certs)).toBeDefined();
  });

  it("an unknown kid refetches the certs at most once a minute (key rotation without a fetch storm)", async () => {
    const now = Date.now();
    let published = [key];
    const certs = certsServer(() => jwks(published));
    expect(await verifyAccessJwt(await jwt(key, claims(now)), SETTINGS, now, certs)).toBeDefined();
    // Access rotates to kid-2: the first token under it triggers a refetch... once the minute is up.
    published = [key, other];
    for (let i = 0; i < 5; i++)
      expect(
        await verifyAccessJwt(
          await jwt({ kid: `made-up-${i}`, pair: other.pair }, claims(now)),
          SETTINGS,
          now + 1000,
          certs,
        ),
      ).toBeUndefined();
    expect(certs.calls).toHaveLength(1);
    expect(await verifyAccessJwt(await jwt(other, claims(now)), SETTINGS, now + 61_000, certs)).toBeDefined();
    expect(certs.calls).toHaveLength(2);
  });

  it("the settings are checked: both or neither, the team domain an https origin", () => {
    expect(merchantVarProblems({ ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUD })).toEqual([]);
    expect(merchantVarProblems({ ACCESS_TEAM_DOMAIN: TEAM })).toEqual([
      "ACCESS_AUD: set ACCESS_TEAM_DOMAIN and ACCESS_AUD both (Cloudflare Access) or neither",
    ]);
    expect(merchantVarProblems({ ACCESS_AUD: AUD })).toHaveLength(1);
    for (const bad of ["http://acme.cloudflareaccess.com", `${TEAM}/cdn-cgi`, "acme"])
      expect(merchantVarProblems({ ACCESS_TEAM_DOMAIN: bad, ACCESS_AUD: AUD })[0]).toMatch(
        /^ACCESS_TEAM_DOMAIN: expected an https origin/,
      );
  });

  describe("in front of the console", () => {
    const accessEnv = (token = ADMIN_TOKEN) => ({
      ...env,
      ADMIN_TOKEN: token,
      ACCESS_TEAM_DOMAIN: TEAM,
      ACCESS_AUD: AUD,
    });
    afterEach(() => vi.restoreAllMocks());

    function stubCerts(keys: () => readonly SigningKey[]) {
      const real = globalThis.fetch;
      return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url === `${TEAM}/cdn-cgi/access/certs`) return Response.json(await jwks(keys()));
        return real(input, init);
      });
    }

    const page = (headers: Record<string, string>) =>
      new Request(`${ORIGIN}/admin/`, { headers: { ...NAVIGATE, ...headers } });

    it("a valid JWT opens the console (Access alone, no admin token); an invalid one is 403; none is sent to sign in", async () => {
      stubCerts(() => [key]);
      const now = Date.now();
      const onlyAccess = accessEnv("");
      const ok = await handleAdmin(page({ "cf-access-jwt-assertion": await jwt(key, claims(now)) }), onlyAccess);
      expect(ok.status).toBe(200);
      const html = await ok.text();
      expect(html).toContain("<h1>Dashboard</h1>");
      expect(html).toContain("owner@shop.example.com");
      for (const bad of [
        await jwt(key, claims(now, { aud: ["other-app"] })),
        await jwt({ kid: "kid-1", pair: other.pair }, claims(now)),
        await jwt(key, claims(now, { exp: Math.floor(now / 1000) - 600 })),
        "forged",
      ]) {
        const res = await handleAdmin(page({ "cf-access-jwt-assertion": bad }), onlyAccess);
        expect(res.status).toBe(403);
        expect(await res.text()).not.toContain("Dashboard");
      }
      const none = await handleAdmin(page({}), onlyAccess);
      expect(none.status).toBe(303);
      const signInPage = await handleAdmin(new Request(`${ORIGIN}/admin/sign-in`), onlyAccess);
      expect(await signInPage.text()).toContain("Cloudflare Access");
      // Without an admin token the JSON API stays closed to Bearer guesses.
      const bearer = await handleAdmin(
        new Request(`${ORIGIN}/admin/api-keys`, { headers: { authorization: "Bearer anything" } }),
        onlyAccess,
      );
      expect(bearer.status).toBe(401);
    });

    it("with both configured the token's session still works, and an Access user's forms carry their own _csrf", async () => {
      stubCerts(() => [key]);
      const now = Date.now();
      const both = accessEnv();
      const started = await startSession(ADMIN_TOKEN, now, true);
      await recordSession(env, started.session.sid, started.session.exp);
      const cookie = /^([^;]+)/.exec(started.setCookie)?.[1] as string;
      expect((await handleAdmin(page({ cookie }), both)).status).toBe(200);
      const assertion = await jwt(key, claims(now));
      const html = await (await handleAdmin(page({ "cf-access-jwt-assertion": assertion }), both)).text();
      const csrf = csrfOf(html);
      const signOut = (token: string) =>
        handleAdmin(
          new Request(`${ORIGIN}/admin/sign-out`, {
            method: "POST",
            headers: {
              "cf-access-jwt-assertion": assertion,
              "content-type": "application/x-www-form-urlencoded",
              origin: ORIGIN,
            },
            body: new URLSearchParams({ _csrf: token }),
          }),
          both,
        );
      expect((await signOut("wrong")).status).toBe(403);
      const out = await signOut(csrf);
      expect(out.status).toBe(303);
      expect(out.headers.get("location")).toBe("/cdn-cgi/access/logout");
    });
  });
});
