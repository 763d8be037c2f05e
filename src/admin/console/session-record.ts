/**
 * The server-side half of console sign-in (durable-objects/console-session-object.ts): an
 * admin-token session counts only while its record is open, and sign-out closes it. The
 * same object per principal keeps one-time flashes, such as a just-issued API key's secret
 * for the page a 303 leads to, so no secret ever rides in a URL or a cookie.
 */
import type { ConsolePrincipal } from "./types";

type SessionEnv = Pick<Env, "CONSOLE_SESSION">;

/** The principal's object name, also what its CSRF token is computed from. */
export function principalKey(principal: ConsolePrincipal): string {
  return principal.via === "access" ? `access:${principal.email}` : `session:${principal.sessionId}`;
}

const sessionObject = (env: SessionEnv, sid: string) => env.CONSOLE_SESSION.getByName(`session:${sid}`);

export async function recordSession(env: SessionEnv, sid: string, expiresAt: number): Promise<void> {
  await sessionObject(env, sid).open(expiresAt);
}

export function sessionOpen(env: SessionEnv, sid: string, now: number): Promise<boolean> {
  return sessionObject(env, sid).isOpen(now);
}

export async function closeSession(env: SessionEnv, sid: string): Promise<void> {
  await sessionObject(env, sid).close();
}

/** Minutes a flash waits for its page: long enough for a slow redirect, short for a secret at rest. */
export const FLASH_MS = 10 * 60_000;

export async function putFlash(
  env: SessionEnv,
  principal: ConsolePrincipal,
  name: string,
  body: string,
  now: number,
): Promise<void> {
  await env.CONSOLE_SESSION.getByName(principalKey(principal)).putFlash(name, body, now + FLASH_MS);
}

export function takeFlash(
  env: SessionEnv,
  principal: ConsolePrincipal,
  name: string,
  now: number,
): Promise<string | undefined> {
  return env.CONSOLE_SESSION.getByName(principalKey(principal)).takeFlash(name, now);
}
