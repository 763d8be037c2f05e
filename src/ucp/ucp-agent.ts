/** The `UCP-Agent` request header (RFC 8941 dictionary): every binding reads the platform's profile URL from it. */

/** `UCP-Agent: profile="https://…"`; only `profile` matters here. */
export function profileFromHeader(value: string | null): string | undefined {
  if (!value) return undefined;
  const match = /(?:^|[,;]\s*)profile\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(value);
  return match?.[1]?.replace(/\\(.)/g, "$1");
}
