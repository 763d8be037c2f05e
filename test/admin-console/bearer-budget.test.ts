/**
 * Wrong Bearer tokens on the admin JSON API (issue 26 item 4) draw from the same per-address
 * budget as the console's sign-in form: past it the API answers 429 with Retry-After, even to
 * the right token from that address, and the sign-in form refuses that address too. Other
 * addresses are not affected.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, ORIGIN, postForm } from "../helpers/console";

/** test/vitest.config.ts: RATE_LIMIT_ANONYMOUS allows 200 a minute per key. */
const BUDGET = 200;

function api(ip: string, token: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/admin/api-keys`, {
    headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": ip },
  });
}

describe("the Bearer admin API and the sign-in budget", () => {
  it("answers 429 with Retry-After after the budget's worth of wrong tokens from one address", async () => {
    const ip = "198.51.100.71";
    let status = 0;
    let attempts = 0;
    // Fixed windows: one ending mid-loop restarts the count, so allow two windows' worth.
    for (; attempts < 2 * BUDGET + 50 && status !== 429; attempts++)
      status = (await api(ip, `guess-${attempts}`)).status;
    expect(status).toBe(429);
    expect(attempts).toBeGreaterThan(BUDGET);

    const right = await api(ip, ADMIN_TOKEN);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(right.headers.get("cache-control")).toBe("no-store");
    expect(await right.json()).toMatchObject({ error: "rate_limited" });

    // The same budget as the sign-in form: the form refuses this address now too.
    const form = '<form action="/admin/sign-in"></form>';
    const signIn = await postForm(form, "/admin/sign-in", { token: ADMIN_TOKEN }, { ip });
    expect(signIn.status).toBe(429);
    expect(signIn.headers.get("retry-after")).toBe("60");

    // Another address keeps working.
    expect((await api("198.51.100.72", ADMIN_TOKEN)).status).toBe(200);
  }, 120_000);

  it("wrong sign-ins on the form spend the Bearer API's budget for that address", async () => {
    const ip = "198.51.100.73";
    const form = '<form action="/admin/sign-in"></form>';
    let status = 0;
    for (let i = 0; i < 2 * BUDGET + 50 && status !== 429; i++)
      status = (await postForm(form, "/admin/sign-in", { token: `guess-${i}` }, { ip })).status;
    expect(status).toBe(429);
    const res = await api(ip, ADMIN_TOKEN);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
  }, 120_000);
});
