#!/usr/bin/env node
// `npm test`: runs the vitest projects one after another and reports every one, even
// when an earlier one fails (a `&&` chain would hide the later ones). Arguments are passed
// to each project (e.g. a file filter), which then may find no file of its own.
// The projects' skip notices (no spec material, no Chromium) are collected, one line each.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const PROJECTS = [
  ["node", "test/node.vitest.config.ts"],
  ["workerd", "test/vitest.config.ts"],
  // A store with Stripe keys and no test mode, against the Stripe stand-in (test/stripe/).
  ["workerd-stripe", "test/payment/stripe/vitest.config.ts"],
  // A store whose prices include tax (TAX.prices_include_tax).
  ["workerd-tax-inclusive", "test/stores/tax-inclusive/vitest.config.ts"],
  ["e2e", "test/e2e/vitest.config.ts"],
  ["browser", "test/browser/vitest.config.ts"],
];

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
const args = process.argv.slice(2);
const noticeDir = mkdtempSync(path.join(tmpdir(), "ucp-test-"));
const noticeFile = path.join(noticeDir, "notices");

const results = [];
for (const [name, config] of PROJECTS) {
  console.log(`\n=== ${name} tests (${config})`);
  const run = spawnSync(
    process.execPath,
    [vitest, "run", "--config", config, ...(args.length > 0 ? ["--passWithNoTests", ...args] : [])],
    { cwd: root, stdio: "inherit", env: { ...process.env, UCP_NOTICE_FILE: noticeFile } },
  );
  results.push([name, run.status ?? 1]);
}

let notices = [];
try {
  notices = [...new Set(readFileSync(noticeFile, "utf8").split("\n").filter(Boolean))];
} catch {
  // No project had anything to skip.
}
rmSync(noticeDir, { recursive: true, force: true });

console.log(`\n${results.map(([name, rc]) => `${name}: ${rc === 0 ? "passed" : `FAILED (exit ${rc})`}`).join(", ")}`);
for (const notice of notices) console.log(notice);
process.exit(results.some(([, rc]) => rc !== 0) ? 1 : 0);
