/**
 * How buyer notifications leave the system. The order object's outbox calls a
 * NotificationSender; this module holds the interface, the default that only logs, and the
 * one place a deployment swaps in a real provider (docs/orders.md, "Plugging in email").
 */
export interface NotificationMessage {
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface NotificationSender {
  /** `ok: false` (or a throw) means "not delivered, try again later"; the outbox retries. */
  send(message: NotificationMessage): Promise<{ ok: boolean }>;
}

/** Logs one line per message: enough to see, locally, that a confirmation "was sent". */
export const logSender: NotificationSender = {
  async send(message) {
    // The address is masked: logs are kept and shared more widely than the order itself.
    console.log(`notify ${message.kind} to=${maskEmail(message.to)} subject=${JSON.stringify(message.subject)}`);
    return { ok: true };
  },
};

/** The sender the order object uses. Return your provider's sender here to send real email. */
export function notificationSender(_env: Env): NotificationSender {
  return logSender;
}

function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  return at <= 0 ? "***" : `${address.slice(0, 1)}***${address.slice(at)}`;
}
