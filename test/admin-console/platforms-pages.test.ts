/**
 * The console's platforms page (issue 13): a key issued in the browser is shown once, listed
 * with its last use, works for its platform at /ucp/mcp, and once revoked is refused there.
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
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const page = await res.text();
    const key = /value="(ucpk_[A-Za-z0-9_-]{43})"/.exec(page)?.[1] ?? "";
    expect(key).not.toBe("");

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
