/**
 * A NotificationMessage as an RFC 5322 message, framed by mimetext: multipart/alternative
 * (plain text and HTML) when there is HTML. mimetext writes bodies as given and labels them
 * 7bit by default, which would mangle any non-ASCII title ("Crème Tee"), so each body goes
 * in as UTF-8 base64 in 76-column lines. The browser build is used because it ends lines
 * with CRLF (the node build takes os.EOL, "\n" on Linux and in workerd) and needs no
 * mime-types database. Pure apart from the Date header and mimetext's random boundaries.
 */
import { createMimeMessage } from "mimetext/browser";
import type { NotificationMessage } from "./sender";

export interface MimeEnvelope {
  /** The From header, e.g. `Demo Outfitters <orders@mg.shop.example>`. */
  readonly from: string;
  /** Stable per message (`<order_confirmation.ord_…@mg.shop.example>`): a resend is recognizable. */
  readonly messageId: string;
}

export function mimeMessage(message: NotificationMessage, envelope: MimeEnvelope): string {
  const mime = createMimeMessage();
  mime.setSender(envelope.from);
  mime.setTo(message.to);
  mime.setSubject(message.subject);
  mime.setHeader("Message-ID", envelope.messageId);
  mime.addMessage({ contentType: "text/plain", encoding: "base64", data: base64Lines(message.text) });
  if (message.html !== undefined)
    mime.addMessage({ contentType: "text/html", encoding: "base64", data: base64Lines(message.html) });
  return mime.asRaw();
}

/** Text in canonical form (CRLF line breaks, RFC 2046 §4.1.1), UTF-8, base64 folded at 76 (RFC 2045 §6.8). */
export function base64Lines(value: string): string {
  const bytes = new TextEncoder().encode(value.replace(/\r?\n/g, "\r\n"));
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}
