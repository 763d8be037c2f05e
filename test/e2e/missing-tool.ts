/**
 * A suite whose outside tool (openssl, the npm registry) is missing: under CI that is a
 * failure, anywhere else the suite is skipped with one line, which `npm test` collects with
 * the other projects' notices (UCP_NOTICE_FILE, test/run-projects.mjs).
 */
import { appendFileSync } from "node:fs";

/** True when the suite must be skipped; throws under CI. `why` undefined: nothing is missing. */
export function skipForMissing(suite: string, why: string | undefined): boolean {
  if (why === undefined) return false;
  const ci = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";
  if (ci) throw new Error(`${suite} may not be skipped under CI: ${why}`);
  const notice = `Skipped ${suite}: ${why}`;
  if (process.env.UCP_NOTICE_FILE) appendFileSync(process.env.UCP_NOTICE_FILE, `${notice.split("\n")[0]}\n`);
  else console.warn(notice);
  return true;
}
