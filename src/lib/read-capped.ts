/** Reads a body as text, refusing (undefined) past `limit` bytes, declared or streamed. */
export async function readCapped(message: Request | Response, limit: number): Promise<string | undefined> {
  const bytes = await readCappedBytes(message, limit);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** The raw bytes (what a Content-Digest covers), with the same cap. */
export async function readCappedBytes(message: Request | Response, limit: number): Promise<Uint8Array | undefined> {
  const declared = Number(message.headers.get("content-length") ?? "NaN");
  if (declared > limit) {
    await message.body?.cancel();
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
      await reader.cancel();
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
