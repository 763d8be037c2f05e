/**
 * JSON that is already text (a payload serialized once, or a stored idempotent response),
 * spliced into a response as-is: no parse and no second stringify, and stored responses go
 * out byte for byte.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

// Unpredictable per isolate, so no string a client sends can pose as a marker.
let isolateMarker: string | undefined;

/** JSON.stringify that writes RawJson values verbatim. */
export function stringifyWithRaw(value: unknown): string {
  const raws: string[] = [];
  isolateMarker ??= `\u0000raw:${crypto.randomUUID()}:`;
  const marker = isolateMarker;
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof RawJson ? `${marker}${raws.push(v.text) - 1}` : v,
  );
  if (raws.length === 0) return text;
  const quoted = JSON.stringify(marker).slice(1, -1);
  let out = "";
  let from = 0;
  for (;;) {
    const at = text.indexOf(`"${quoted}`, from);
    if (at < 0) break;
    const end = text.indexOf('"', at + quoted.length + 1);
    out += text.slice(from, at) + raws[Number(text.slice(at + quoted.length + 1, end))];
    from = end + 1;
  }
  return out + text.slice(from);
}
