/**
 * Signing out ends the session on the server (issue 26 item 4): a copy of the session cookie
 * taken before sign-out is refused afterwards, on pages and form posts alike, while another
 * session goes on. The session's record (ConsoleSessionObject) is gone, not just the cookie.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Browser, csrfOf, openPage, postForm, signIn } from "../helpers/console";
import { cookieValue, locationPath } from "../helpers/pages";

const COOKIE = "__Host-ucp_console";
const NAVIGATE = { "sec-fetch-mode": "navigate", accept: "text/html" };

function sessionId(browser: Browser): string {
  const payload = (cookieValue(browser, COOKIE) ?? "").split(".")[1] ?? "";
  const json = atob(payload.replaceAll("-", "+").replaceAll("_", "/"));
  return (JSON.parse(json) as { sid: string }).sid;
}

describe("sign-out revokes the session on the server", () => {
  it("a copied cookie works before sign-out and is refused after it; another session is unaffected", async () => {
    const browser = await signIn({ ip: "198.51.100.61" });
    const other = await signIn({ ip: "198.51.100.62" });
    const copy: Browser = { cookie: browser.cookie, ip: "192.0.2.99" };
    const { html } = await openPage("/admin/", copy);
    expect(csrfOf(html)).toBeTruthy();

    const out = await postForm((await openPage("/admin/", browser)).html, "/admin/sign-out", {}, browser);
    expect(out.status).toBe(303);
    expect(locationPath(out)).toBe("/admin/sign-in");

    // The copy still sends the signed, unexpired cookie: the server says no.
    const page = await openPage("/admin/orders", copy);
    expect(page.res.status).toBe(401);
    const navigated = await exports.default.fetch("https://shop.example.com/admin/", {
      redirect: "manual",
      headers: { cookie: copy.cookie ?? "", ...NAVIGATE },
    });
    expect(navigated.status).toBe(303);
    expect(locationPath(navigated)).toBe("/admin/sign-in");
    // Nor may it act: a form posted with the copy's old _csrf is refused before any handler.
    const post = await postForm(html, "/admin/sign-out", {}, copy);
    expect(post.status).toBe(401);
    // The sign-in page does not take it for a session either.
    expect((await openPage("/admin/sign-in", copy)).res.status).toBe(200);

    expect((await openPage("/admin/", other)).res.status).toBe(200);
  });

  it("the session's record is deleted, so nothing of it is left to revive", async () => {
    const browser = await signIn({ ip: "198.51.100.63" });
    const sid = sessionId(browser);
    const stub = env.CONSOLE_SESSION.getByName(`session:${sid}`);
    expect(await stub.isOpen(Date.now())).toBe(true);
    await postForm((await openPage("/admin/", browser)).html, "/admin/sign-out", {}, browser);
    expect(await stub.isOpen(Date.now())).toBe(false);
    const tables = await runInDurableObject(stub, (_, state) =>
      state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'")
        .toArray(),
    );
    expect(tables).toEqual([]);
  });
});
