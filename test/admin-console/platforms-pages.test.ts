/**
 * The console's platforms page (issue 13): a key issued in the browser is shown once, listed
 * with its last use, works for its platform at /ucp/mcp, and once revoked is refused there.
 * Issuing is POST then 303 (issue 26 item 4): the secret is on the page the redirect leads to,
 * once; reloading that page issues nothing and shows the secret no more.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Browser, formFor, openPage, postForm, signIn } from "../helpers/console";
import { FULL_PROFILE, rpc } from "../helpers/mcp";
import { decodeEntities } from "../helpers/pages";

const browser: Browser = { ip: "10.13.4.1" };
const auth = () => (env as { AUTH: KVNamespace }).AUTH;

beforeAll(async () => {
  await signIn(browser);
});

async function issue(fields: Record<string, string>): Promise<Response> {
  const { html } = await openPage("/admin/platforms", browser);
  return postForm(html, "/admin/platforms", fields, browser);
}

describe("platforms page", () => {
  it("issues a key shown once, lists it with its last use, and a revoked key is refused at /ucp/mcp", async () => {
    const label = `Agent ${crypto.randomUUID().slice(0, 8)}`;
    const res = await issue({ label, profile: FULL_PROFILE });
    expect(res.status).toBe(303);
    expect(await res.text()).toBe("");
    const location = res.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/platforms\/issued\?id=key_[A-Za-z0-9_-]{12}$/);
    const shown = await openPage(location, browser);
    expect(shown.res.status).toBe(200);
    expect(shown.res.headers.get("cache-control")).toBe("no-store");
    const page = shown.html;
    const key = /value="(ucpk_[A-Za-z0-9_-]{43})"/.exec(page)?.[1] ?? "";
    expect(key).not.toBe("");
    expect(location).not.toContain(key);

    let { html } = await openPage("/admin/platforms", browser);
    expect(html).not.toContain(key);
    const row = (html.match(/<tr id="key_[^"]+">[\s\S]*?<\/tr>/g) ?? []).find((r) => r.includes(label)) ?? "";
    const id = /<tr id="(key_[A-Za-z0-9_-]{12})"/.exec(row)?.[1] ?? "";
    expect(decodeEntities(row)).toContain(FULL_PROFILE);
    expect(row).toMatch(/never/);

    const ping = await rpc("ping", {}, { authorization: `Bearer ${key}` });
    expect(ping.status).toBe(200);
    expect(ping.headers.get("ucp-trust-tier")).toBe("authenticated");
    const used = await auth().get(`apikey-used:${id}`);
    expect(used).toEqual(expect.any(String));
    // Used again within the hour: nothing written.
    await auth().put(`apikey-used:${id}`, "2099-01-01T00:00:00.000Z");
    expect((await rpc("ping", {}, { authorization: `Bearer ${key}` })).status).toBe(200);
    expect(await auth().get(`apikey-used:${id}`)).toBe("2099-01-01T00:00:00.000Z");
    await auth().put(`apikey-used:${id}`, used ?? "");
    ({ html } = await openPage("/admin/platforms", browser));
    const listed = (html.match(/<tr id="key_[^"]+">[\s\S]*?<\/tr>/g) ?? []).find((r) => r.includes(id)) ?? "";
    expect(listed).toContain(`datetime="${used}"`);

    const revoke = await postForm(html, `/admin/platforms/${id}/revoke`, {}, browser);
    expect(revoke.status).toBe(303);
    expect(revoke.headers.get("location")).toBe(`/admin/platforms?revoked=${id}`);
    ({ html } = await openPage(`/admin/platforms?revoked=${id}`, browser));
    expect(html).toMatch(new RegExp(`<tr id="${id}">[\\s\\S]*?Revoked`));
    expect(html).not.toContain(`action="/admin/platforms/${id}/revoke"`);
    const refused = await rpc("ping", {}, { authorization: `Bearer ${key}` });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: -32000, data: { code: "invalid_api_key" } });
  });

  it("reloading the issued page shows the key's id, not its secret, and mints no second key", async () => {
    const label = `Reload ${crypto.randomUUID().slice(0, 8)}`;
    const res = await issue({ label, profile: FULL_PROFILE });
    const location = res.headers.get("location") ?? "";
    const first = await openPage(location, browser);
    expect(first.html).toMatch(/value="ucpk_/);
    const id = new URL(location, "https://x").searchParams.get("id") ?? "";
    for (let i = 0; i < 2; i++) {
      const again = await openPage(location, browser);
      expect(again.res.status).toBe(200);
      expect(again.html).not.toMatch(/ucpk_/);
      expect(again.html).toContain("API key already shown");
      expect(again.html).toContain(id);
    }
    const { html } = await openPage("/admin/platforms", browser);
    const rows = (html.match(/<tr id="key_[^"]+">[\s\S]*?<\/tr>/g) ?? []).filter((r) => r.includes(label));
    expect(rows).toHaveLength(1);
    // Another signed-in browser cannot take this session's flash, even with the address.
    const next = await issue({ label: `${label} 2`, profile: FULL_PROFILE });
    const stranger = await signIn({ ip: "10.13.4.2" });
    const theirs = await openPage(next.headers.get("location") ?? "", stranger);
    expect(theirs.html).not.toMatch(/ucpk_/);
    expect((await openPage(next.headers.get("location") ?? "", browser)).html).toMatch(/value="ucpk_/);
  });

  it("a profile agents could not use is named on the form; a form without its token is refused", async () => {
    const bad = await issue({ label: "insecure", profile: "http://insecure.example/p.json" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/Profile URL: /);
    const { html } = await openPage("/admin/platforms", browser);
    const forged = await postForm(html, "/admin/platforms", { _csrf: "x", profile: FULL_PROFILE }, browser);
    expect(forged.status).toBe(403);
    expect(formFor(html, "/admin/platforms")).toContain('name="profile"');
  });
});
