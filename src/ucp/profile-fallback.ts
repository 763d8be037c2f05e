/**
 * PROFILE_FALLBACK=assume-compatible (local development only): what a profile that cannot
 * be fetched becomes, said in one quiet line instead of an alarm.
 *
 * Profiles on documentation-only hosts are not fetched at all under the fallback: the README
 * and the seed examples name https://platform.example/…, and workerd prints every failed
 * DNS lookup as a red internal-error stack trace, though nothing is wrong. Those hosts are
 * the `.example` and `.invalid` top-level domains (RFC 6761) and IANA's example.com/.net/.org
 * (RFC 2606), whose subdomains do not exist. `.test` and `.localhost` are fetched: a
 * developer's own resolver or hosts file may well serve them.
 */
import { Lru } from "../lib/lru";
import { err } from "../lib/result";
import type { ProfileResult } from "./profile-fetch";

const DOCUMENTATION_HOST = /(?:^|\.)(?:example|invalid|example\.com|example\.net|example\.org)\.?$/i;

const NOT_FETCHED: ProfileResult = err({
  code: "profile_unreachable",
  content: "Platform profile is on a documentation-only host and was not fetched",
});

/** Stands in for a fetch that is bound to fail (see above), or undefined to fetch as usual. */
export function documentationHostResult(url: URL): ProfileResult | undefined {
  return DOCUMENTATION_HOST.test(url.hostname) ? NOT_FETCHED : undefined;
}

const told = new Lru<string, true>(256);

/** One line per profile URL per isolate: the developer needs to hear it once, not per request. */
export function noteAssumedCompatible(url: URL, reason: string): void {
  if (told.get(url.href)) return;
  told.set(url.href, true);
  console.log(`profile ${url.href} unreachable (${reason}); assuming compatible (PROFILE_FALLBACK)`);
}
