/**
 * A small reader of the messages the store sends, for tests: headers (RFC 2047 encoded-words
 * decoded), and the parts of a multipart body with their base64 or quoted-printable bodies
 * decoded to text. Enough for what mime-message.ts writes; not a general MIME parser.
 */
export interface ParsedPart {
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface ParsedMessage extends ParsedPart {
  readonly parts: ParsedPart[];
}

export function parseMime(raw: string): ParsedMessage {
  const { headers, body } = splitPart(raw);
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
  if (!boundary) return { headers, body: decodeBody(headers, body), parts: [] };
  const sections = body.split(`--${boundary}`);
  const parts = sections
    .slice(1)
    .filter((s) => !s.startsWith("--"))
    .map((s) => {
      const part = splitPart(s.replace(/^\r\n/, "").replace(/\r\n$/, ""));
      return { headers: part.headers, body: decodeBody(part.headers, part.body) };
    });
  return { headers, body: "", parts };
}

function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? "" : raw.slice(end + 4);
  const headers: Record<string, string> = {};
  // Folded lines (starting with white space) continue the previous header.
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const soft = body.replace(/=\r\n/g, "");
    return Buffer.from(
      soft.replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
      "latin1",
    ).toString("utf8");
  }
  return body;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h) => String.fromCharCode(Number.parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}
