/**
 * npm run check:config [-- --env NAME] [--config PATH] [--deploy]: checks every merchant
 * setting of one store with the parsers the Worker runs, naming each mistake with where it
 * is, all of them in one run (settings, email, Stripe), then exits 1 on any. Warnings (no
 * email, a discount amount that looks like major units) never fail it. `--deploy` adds what
 * a deployed store needs (https origin, real KV ids); `npm run deploy` always applies it.
 *
 * Email (docs/email.md): a store without it passes with a warning. Its key is a secret, so
 * the local check looks for it where `npm start` does (.dev.vars); a deployed store's
 * secrets cannot be read, only listed (`npx wrangler secret list`).
 */
import path from "node:path";
import { EMAIL_NOT_CONFIGURED, emailSetup, emailVarProblems } from "../src/config/email";
import { stripeVarProblems, stripeVarWarnings } from "../src/config/stripe";
import { devVars, emailNotice } from "./lib/dev-launch";
import { discountUnitWarnings } from "./lib/discount-units";
import { refuseProblems, storeArgs, storeName, storeProblems } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
if (args.strayDashes) console.log("note: ignored a stray `--` (npm passes what follows it on already)");
const deploying = args.rest.includes("--deploy");
const { config, problems } = await storeProblems(args, deploying);
const vars = config.vars as Record<string, unknown>;
const at = (name: string) => (args.env ? `[env.${args.env}.vars.${name}]` : `[vars.${name}]`);
const warnings: string[] = [];

const emailConfigured = ["MAILGUN_DOMAIN", "EMAIL_FROM"].some((name) => vars[name] !== undefined);
if (!emailConfigured) warnings.push(EMAIL_NOT_CONFIGURED);
else if (deploying) console.log("note: MAILGUN_API_KEY is a secret this check cannot read: `npx wrangler secret list`");
else if (emailVarProblems(vars).length === 0) {
  // [vars] are right (their problems are already listed otherwise): what is left is the secret.
  const email = emailSetup(devVars(args.configPath, args.env));
  if (email.kind === "invalid") problems.push(...email.problems.map((p) => `[.dev.vars] ${p}`));
  else console.log(emailNotice(email));
}

// Stripe (docs/payments.md "Connect Stripe"): its keys are secrets; locally .dev.vars holds them.
const stripeVars = deploying ? vars : devVars(args.configPath, args.env);
const stripeWhere = deploying ? "[vars]" : "[vars] and .dev.vars";
const stripeProblems = stripeVarProblems(stripeVars).filter((p) => !stripeVarProblems(vars).includes(p));
problems.push(...stripeProblems.map((p) => `[${stripeWhere}] ${p}`));
warnings.push(...stripeVarWarnings(stripeVars));
if (deploying && (vars.STRIPE_PUBLISHABLE_KEY || vars.STRIPE_PROFILE_ID || vars.GOOGLE_PAY_ENVIRONMENT))
  console.log("note: STRIPE_SECRET_KEY is a secret this check cannot read: `npx wrangler secret list`");

const currency = typeof vars.MERCHANT_CURRENCY === "string" ? vars.MERCHANT_CURRENCY : "USD";
warnings.push(...discountUnitWarnings(vars.DISCOUNTS, currency, at("DISCOUNTS"), args.configPath, args.env));

for (const w of warnings) console.warn(`warning: ${w}`);
refuseProblems(problems, args, "fix them and run again");
const origin = vars.MERCHANT_ORIGIN;
console.log(
  `${storeName(args)}: configuration OK (${String(origin ?? "no origin")}${deploying ? ", ready to deploy" : ""})`,
);
