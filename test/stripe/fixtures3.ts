/**
 * Stripe's published example objects (`fixtures3.json` from stripe/openapi, kept in
 * ../shared/stripe beside the repository, never copied in). STRIPE_FIXTURES names another
 * copy; a name that does not exist is an error. Absent material skips the shape checks with a
 * notice, unless UCP_SPEC_REQUIRED (CI) is set, which makes absence an error.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "../..");

export interface Fixtures3 {
  readonly resources: Record<string, Record<string, unknown>>;
  readonly from: string;
}

export function loadFixtures3(
  env: Readonly<Record<string, string | undefined>> = process.env,
  repo = REPO,
): Fixtures3 | undefined {
  const named = env.STRIPE_FIXTURES;
  const file = named ? path.resolve(named) : path.resolve(repo, "../shared/stripe/fixtures3.json");
  if (!existsSync(file)) {
    if (named) throw new Error(`STRIPE_FIXTURES=${named}: no such file`);
    if (env.UCP_SPEC_REQUIRED) {
      throw new Error(
        `UCP_SPEC_REQUIRED is set, so nothing may be skipped, but Stripe's fixtures3.json is missing (${file}).`,
      );
    }
    return undefined;
  }
  const doc = JSON.parse(readFileSync(file, "utf8")) as { resources?: Fixtures3["resources"] };
  if (!doc.resources?.payment_intent)
    throw new Error(`${file}: not Stripe's fixtures3.json (no resources.payment_intent)`);
  return { resources: doc.resources, from: file };
}

export const fixturesNotice = (repo = REPO) =>
  `Skipped the Stripe stand-in's shape checks: no ${path.resolve(repo, "../shared/stripe/fixtures3.json")}. Set STRIPE_FIXTURES to a copy of stripe/openapi's openapi/fixtures3.json to run them.`;
