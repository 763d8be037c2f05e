/**
 * How buyer notifications leave the system. The order object's outbox calls a
 * NotificationSender; this module holds the interface, the default that only logs, and the
 * choice between them: Mailgun when the store's email settings are complete (docs/email.md),
 * the log otherwise.
 */
import { merchantConfig } from "../config";
import type { RetryPolicy } from "../lib/retry";
import { mailgunSender } from "./mailgun";

export interface NotificationMessage {
  readonly kind: string;
  /** Stable for this message across retries (`order_confirmation.<order id>`). */
  readonly id?: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The same content as HTML, every value escaped; senders that cannot send HTML ignore it. */
  readonly html?: string;
}

/**
 * `ok: true`: the provider accepted it. `ok: false` (or a throw): not delivered, the outbox
 * tries again later; with `permanent: true` it gives up now (the provider refused the message
 * itself, so a retry would be refused the same way).
 */
export interface SendResult {
  readonly ok: boolean;
  readonly permanent?: boolean;
}

export interface NotificationSender {
  send(message: NotificationMessage): Promise<SendResult>;
  /** The backoff the outbox uses for this sender's failures; the order object's default when absent. */
  readonly retry?: RetryPolicy;
}

/** Logs one line per message: enough to see, locally, that a confirmation "was sent". */
export const logSender: NotificationSender = {
  async send(message) {
    // The address is masked: logs are kept and shared more widely than the order itself.
    console.log(`notify ${message.kind} to=${maskEmail(message.to)} subject=${JSON.stringify(message.subject)}`);
    return { ok: true };
  },
};

/** The sender the order object uses: the configured provider, or the log. */
export function notificationSender(env: Env): NotificationSender {
  const config = merchantConfig(env);
  const email = config.email;
  if (email.kind === "mailgun") return mailgunSender(email.settings, config.emailRetry);
  if (email.kind === "invalid") return misconfiguredSender(email.problems, config.emailRetry);
  return logSender;
}

/**
 * A store that meant to send email but is missing a piece: each attempt names the problem
 * and stays unsent, so a fix within the retry window (about 5 hours) still delivers it.
 */
function misconfiguredSender(problems: readonly string[], retry: RetryPolicy): NotificationSender {
  return {
    retry,
    async send(message) {
      const who = `${message.kind} to=${maskEmail(message.to)}`;
      console.error(`email ${who}: not sent, email is misconfigured: ${problems.join("; ")} (docs/email.md)`);
      return { ok: false };
    },
  };
}

export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  return at <= 0 ? "***" : `${address.slice(0, 1)}***${address.slice(at)}`;
}
