/**
 * `GET /admin/platforms`: the platforms' API keys (label, profile, created, last used,
 * revoked) with a revoke button each, and the form that issues one. A new key's secret is
 * on the page that answers the issue form and on no other (platforms-actions.ts).
 */
import type { ApiKeyListing, ApiKeyRecord } from "../../auth/api-keys";
import { html, type SafeHtml } from "../../pages/html";
import { consoleCsrfInput, renderConsole } from "./layout";
import { dateTime } from "./orders-format";
import type { ConsoleContext } from "./types";

export function platformsPage(
  ctx: ConsoleContext,
  keys: readonly ApiKeyListing[],
  options: { status?: number; problems?: readonly string[]; revoked?: string } = {},
): Response {
  return renderConsole(ctx, {
    title: "Platforms",
    status: options.status ?? 200,
    body: html`<h1>Platforms</h1>
${options.revoked ? html`<p class="notice ok" role="status">Key ${options.revoked} revoked: agents using it are refused within about a minute.</p>` : ""}
${issueForm(ctx, options.problems ?? [])}
${keyTable(ctx, keys)}`,
  });
}

function issueForm(ctx: ConsoleContext, problems: readonly string[]): SafeHtml {
  return html`<section class="card" aria-labelledby="issue-title">
<h2 id="issue-title">Issue an API key</h2>
<p class="muted">A key lets one platform (an AI agent's operator) place and read orders for the profile it is bound to. The secret is shown once.</p>
${problems.length > 0 ? html`<div class="notice error" role="alert"><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : ""}
<form method="post" action="/admin/platforms">
${consoleCsrfInput(ctx)}
<label for="key-label">Label</label>
<input id="key-label" name="label" maxlength="200" placeholder="e.g. Acme shopping agent">
<label for="key-profile">Platform profile URL</label>
<input id="key-profile" name="profile" type="url" required maxlength="2048" placeholder="https://platform.example/profiles/agent.json">
<p><button type="submit">Issue key</button></p>
</form>
</section>`;
}

function keyTable(ctx: ConsoleContext, keys: readonly ApiKeyListing[]): SafeHtml {
  if (keys.length === 0) return html`<p>No API keys yet.</p>`;
  const sorted = [...keys].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return html`<section aria-labelledby="keys-title">
<h2 id="keys-title">API keys</h2>
<div class="card"><table>
<thead><tr><th scope="col">Label</th><th scope="col">Profile</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
<tbody>${sorted.map(
    (key) => html`<tr id="${key.id}">
<td>${key.label} <span class="muted">${key.id}</span></td>
<td>${key.profile}</td>
<td>${time(ctx, key.created_at)}</td>
<td>${key.last_used_at ? time(ctx, key.last_used_at) : html`<span class="muted">never</span>`}</td>
<td>${
      key.revoked_at
        ? html`<span class="status">Revoked ${time(ctx, key.revoked_at)}</span>`
        : html`<form method="post" action="/admin/platforms/${key.id}/revoke">${consoleCsrfInput(ctx)}<button type="submit" class="danger" aria-label="Revoke ${key.label} (${key.id})">Revoke</button></form>`
    }</td>
</tr>`,
  )}</tbody>
</table></div>
<p class="muted">Last used is kept to the hour.</p>
</section>`;
}

function time(ctx: ConsoleContext, iso: string): SafeHtml {
  return html`<time datetime="${iso}">${dateTime(ctx, iso)}</time>`;
}

/** Where the issue form's 303 leads: the secret, this once (no-store like every console page). */
export function issuedPage(ctx: ConsoleContext, key: string, record: ApiKeyRecord): Response {
  return renderConsole(ctx, {
    title: "API key issued",
    body: html`<h1>API key issued</h1>
<div class="notice ok" role="status">
<p>Give this key to <strong>${record.label}</strong> now: it is shown only on this page and cannot be shown again (the store keeps only its hash).</p>
<p><label for="issued-key">API key for ${record.profile}</label>
<input id="issued-key" readonly value="${key}" data-api-key></p>
<p class="muted">The platform sends it as <code>Authorization: Bearer …</code> or <code>X-API-Key</code>, with its profile <code>${record.profile}</code>. It works everywhere within about a minute.</p>
</div>
<p><a href="/admin/platforms">Back to platforms</a></p>`,
  });
}

/** The same address once the secret was shown (a reload, a second tab): nothing new is issued. */
export function shownPage(ctx: ConsoleContext, id: string | undefined): Response {
  return renderConsole(ctx, {
    title: "API key already shown",
    body: html`<h1>API key already shown</h1>
<p>${id ? html`The secret of key <strong>${id}</strong>` : "This key's secret"} was shown once and is not kept: the store has only its hash. No new key was issued.</p>
<p>If it was not copied, revoke that key on the platforms page and issue another.</p>
<p><a href="/admin/platforms${id ? `#${id}` : ""}">Back to platforms</a></p>`,
  });
}
