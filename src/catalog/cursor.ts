/**
 * Stateless pagination cursors: base64url of `offset.fingerprint`. The fingerprint ties a
 * cursor to the query and filters it was issued for, so a cursor cannot be replayed
 * against another search.
 */
export function requestFingerprint(value: unknown): string {
  // FNV-1a over the canonical JSON: not a security boundary, only a consistency check.
  const text = JSON.stringify(value);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return btoa(`${offset}.${fingerprint}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The offset a cursor stands for, or undefined when it is malformed or for another query. */
export function decodeCursor(cursor: string, fingerprint: string): number | undefined {
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return undefined;
  }
  const match = /^(\d{1,9})\.([0-9a-z]+)$/.exec(text);
  if (!match || match[2] !== fingerprint) return undefined;
  return Number(match[1]);
}
