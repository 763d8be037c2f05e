/**
 * Reads a body with a size cap, declared or streamed. Past the cap the two directions part:
 *
 * - an incoming request's body is never cancelled. The connection it came on carries the
 *   client's next request, and a cancelled body breaks it (under `wrangler dev` the next
 *   request on that keep-alive connection is answered `503 Your worker restarted
 *   mid-request`). A body declared too large is left unread, which the runtime discards
 *   after the response like any early answer's (a 405, a 401); one that streams past the
 *   cap is read to its end and thrown away, because a half-read stream resets the
 *   connection. The platform's own request size limit bounds that drain.
 * - a fetched response's body (a platform profile) is cancelled: nothing else rides on
 *   that connection and a hostile server must not make us download its excess.
 */

/** The body as text, or undefined past `limit` bytes. */
export async function readCapped(message: Request | Response, limit: number): Promise<string | undefined> {
  const bytes = await readCappedBytes(message, limit);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** The raw bytes (what a Content-Digest covers), with the same cap. */
export async function readCappedBytes(message: Request | Response, limit: number): Promise<Uint8Array | undefined> {
  const incoming = message instanceof Request;
  const declared = Number(message.headers.get("content-length") ?? "NaN");
  if (declared > limit) {
    if (!incoming) await message.body?.cancel();
    return undefined;
  }
  if (!message.body) return new Uint8Array(0);
  // A declared length bounds what HTTP framing delivers: read it in one go.
  if (Number.isFinite(declared)) return new Uint8Array(await message.arrayBuffer());
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      if (incoming) await drain(reader);
      else await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  for (;;) if ((await reader.read()).done) return;
}
