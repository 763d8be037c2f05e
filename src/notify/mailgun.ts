/**
 * Mailgun's HTTP API as a NotificationSender (docs/email.md): `POST {base}/v3/{domain}/messages.mime`,
 * multipart/form-data with `to` and the whole MIME message as `message`, HTTP basic auth
 * `api:{key}`. Mailgun answers 200 `{"id": "<…>", "message": "Queued. Thank you."}` once it
 * has taken the message.
 *
 * Outcomes for the outbox: 200 sent; 408, 429, 5xx and network errors are retried; any
 * other answer (401 bad key, 400 bad message, 404 unknown domain) is permanent, logged and
 * not retried: the same request would be refused the same way for hours.
 */

import { ADDRESS, type MailgunSettings } from "../config/email";
import type { RetryPolicy } from "../lib/retry";
import { mimeMessage } from "./mime-message";
import type { NotificationMessage, NotificationSender, SendResult } from "./sender";
import { maskEmail } from "./sender";

const TIMEOUT_MS = 15_000;

export function mailgunSender(settings: MailgunSettings, retry?: RetryPolicy): NotificationSender {
  const url = `${settings.apiBase}/v3/${encodeURIComponent(settings.domain)}/messages.mime`;
  const authorization = `Basic ${btoa(`api:${settings.apiKey}`)}`;
  return {
    ...(retry ? { retry } : {}),
    async send(message) {
      const who = `${message.kind} to=${maskEmail(message.to)}`;
      // The checkout checked the address; this guards the header it becomes.
      if (!ADDRESS.test(message.to)) {
        console.error(`email ${who}: not a deliverable address, not sent`);
        return { ok: false, permanent: true };
      }
      const form = new FormData();
      form.set("to", message.to);
      form.set("message", new Blob([mimeMessage(message, envelope(message, settings))]), "message.mime");
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { authorization },
          body: form,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (e) {
        console.error(`email ${who}: Mailgun unreachable, will retry: ${e instanceof Error ? e.message : e}`);
        return { ok: false };
      }
      const body = (await res.text()).slice(0, 300);
      const result = outcome(res.status);
      if (result.ok) console.log(`email ${who}: accepted by Mailgun ${body}`);
      else
        console.error(
          `email ${who}: Mailgun answered ${res.status}${result.permanent ? ", not retried" : ", will retry"}: ${body}`,
        );
      return result;
    },
  };
}

export function outcome(status: number): SendResult {
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 408 || status === 429 || status >= 500) return { ok: false };
  return { ok: false, permanent: true };
}

/** From as configured; the Message-ID from the message's stable id, so a resend carries the same one. */
function envelope(message: NotificationMessage, settings: MailgunSettings) {
  const local = (message.id ?? `${message.kind}.${crypto.randomUUID()}`).replace(/[^A-Za-z0-9._-]/g, "-");
  return { from: settings.from, messageId: `<${local}@${settings.domain}>` };
}
