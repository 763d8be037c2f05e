/**
 * npm run check:config [-- --env NAME] [--config PATH] [--deploy]: checks every merchant
 * setting of one store with the parsers the Worker runs, naming each mistake with where it
 * is; exits 1 on any. `--deploy` adds what a deployed store needs (https origin, real KV ids);
 * `npm run deploy` always applies it.
 *
 * Email (docs/email.md): a store without it passes with a warning. Its key is a secret, so
 * the local check looks for it where `npm start` does (.dev.vars); a deployed store's
 * secrets cannot be read, only listed (`npx wrangler secret list`).
 */
import path from "node:path";
import { EMAIL_NOT_CONFIGURED, emailSetup } from "../src/notify/email-config";
import { stripeVarProblems, stripeVarWarnings } from "../src/payment/stripe-vars";
import { CliError } from "./lib/cli-error";
import { devVars, emailNotice } from "./lib/dev-launch";
import { checkedStore, storeArgs } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
const deploying = args.rest.includes("--deploy");
const config = await checkedStore(args, deploying, "fix them and run again");
const vars = config.vars as Record<string, unknown>;
const store = `${path.basename(args.configPath)}${args.env ? ` [env.${args.env}]` : ""}`;

const emailConfigured = ["MAILGUN_DOMAIN", "EMAIL_FROM"].some((name) => vars[name] !== undefined);
if (!emailConfigured) console.warn(`warning: ${EMAIL_NOT_CONFIGURED}`);
else if (deploying) console.log("note: MAILGUN_API_KEY is a secret this check cannot read: `npx wrangler secret list`");
else {
  // [vars] passed checkedStore, so what is left to go wrong is the secret.
  const email = emailSetup(devVars(args.configPath, args.env));
  if (email.kind === "invalid") {
    for (const p of email.problems) console.error(`error: [.dev.vars] ${p}`);
    throw new CliError(`email is half configured in ${store} as \`npm start\` runs it; fix it and run again`);
  }
  console.log(emailNotice(email));
}

// Stripe (docs/payments.md "Connect Stripe"): its keys are secrets; locally .dev.vars holds them.
const stripeVars = deploying ? vars : devVars(args.configPath, args.env);
const stripeWhere = deploying ? "[vars]" : "[vars] and .dev.vars";
const stripeProblems = stripeVarProblems(stripeVars).filter((p) => !stripeVarProblems(vars).includes(p));
for (const p of stripeProblems) console.error(`error: [${stripeWhere}] ${p}`);
if (stripeProblems.length > 0) throw new CliError(`Stripe is misconfigured in ${store}; fix it and run again`);
for (const w of stripeVarWarnings(stripeVars)) console.warn(`warning: ${w}`);
if (deploying && (vars.STRIPE_PUBLISHABLE_KEY || vars.STRIPE_PROFILE_ID || vars.GOOGLE_PAY_ENVIRONMENT))
  console.log("note: STRIPE_SECRET_KEY is a secret this check cannot read: `npx wrangler secret list`");

const origin = vars.MERCHANT_ORIGIN;
console.log(`${store}: configuration OK (${String(origin ?? "no origin")}${deploying ? ", ready to deploy" : ""})`);
