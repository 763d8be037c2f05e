/**
 * Browser test harness: Debian's Chromium (playwright-core) against the real local server.
 *
 *   import { describeBrowser, useHarness, expectNoSeriousAxeViolations, screenshot } from "./harness";
 *
 *   describeBrowser("the cart page", () => {
 *     const h = useHarness();              // beforeAll: server + Chromium; afterAll: both stopped
 *     it("shows the cart", async () => {
 *       const agent = await h.agent();     // MCP SDK client, authenticated platform (agent.ts)
 *       const cart = await agent.call("create_cart", { cart: { line_items: [...] } });
 *       const page = await (await h.desktop()).newPage();   // or h.phone()
 *       await page.goto(cart.continue_url);
 *       await expectNoSeriousAxeViolations(page);
 *       await screenshot(page, "cart");    // docs/screenshots/cart-desktop.png, only with UCP_SCREENSHOTS=1
 *     });
 *   });
 *
 * - `describeBrowser` is `describe`, or `describe.skip` when no Chromium is found (chromium.ts;
 *   the project's config prints the one notice, and UCP_BROWSER_REQUIRED=1 fails instead).
 * - `h.baseUrl`: the server's origin (every URL it publishes names it). UCP_BROWSER_PORT
 *   picks the port, else a free one.
 * - `h.desktop()` (1280×800) and `h.phone()` (390×844, touch, isMobile, scale 2): fresh
 *   contexts, closed with the browser, that refuse every request off the server's origin.
 * - `h.agent({ anonymous })`: agent.ts; closed in afterAll too. sessions.ts makes a cart, a
 *   ready checkout and a placed order with it.
 * - `expectNoSeriousAxeViolations(page)`: throws on serious/critical, prints the rest.
 * - `screenshot(page, name)`: docs/screenshots/<name>-desktop|phone.png, by the page's context.
 * Test files are test/browser/<name>.browser.test.ts (`npm run test:browser`); they run one at
 * a time, each with its own server (fresh state, fresh rate limits).
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe } from "vitest";
import { type LocalServer, ROOT, startServer } from "../e2e/server";
import { type Agent, connectAgent } from "./agent";
import { findChromium } from "./chromium";

const CHROMIUM = findChromium();
if (!CHROMIUM && process.env.UCP_BROWSER_REQUIRED) {
  throw new Error("UCP_BROWSER_REQUIRED is set but no Chromium was found (CHROMIUM_PATH, chromium, chromium-browser)");
}

/** `describe`, or `describe.skip` when this machine has no Chromium. */
export const describeBrowser = CHROMIUM ? describe : describe.skip;

export interface Harness {
  readonly baseUrl: string;
  readonly browser: Browser;
  desktop(): Promise<BrowserContext>;
  phone(): Promise<BrowserContext>;
  agent(options?: { anonymous?: boolean }): Promise<Agent>;
}

const phones = new WeakSet<BrowserContext>();

/** Registers beforeAll/afterAll in the calling describe; the harness is usable inside tests. */
export function useHarness(): Harness {
  let server: LocalServer | undefined;
  let browser: Browser | undefined;
  const agents: Agent[] = [];
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the harness's ${what} is not started (use it inside a test)`);
    return value;
  };

  beforeAll(async () => {
    const port = process.env.UCP_BROWSER_PORT ? Number(process.env.UCP_BROWSER_PORT) : undefined;
    [server, browser] = await Promise.all([
      startServer({ port }),
      chromium.launch({ executablePath: started(CHROMIUM, "Chromium"), args: ["--no-sandbox"] }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled(agents.map((a) => a.close()));
    await browser?.close();
    await server?.stop();
  });

  // Tests never use the network: anything off the server's origin (catalog images on
  // https://….example, a logo) is refused at once instead of waiting on DNS.
  const offline = async (opening: Promise<BrowserContext>): Promise<BrowserContext> => {
    const context = await opening;
    const origin = new URL(started(server, "server").baseUrl).origin;
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort("blockedbyclient"),
    );
    return context;
  };

  return {
    get baseUrl() {
      return started(server, "server").baseUrl;
    },
    get browser() {
      return started(browser, "browser");
    },
    desktop: () => offline(started(browser, "browser").newContext({ viewport: { width: 1280, height: 800 } })),
    async phone() {
      const context = await offline(
        started(browser, "browser").newContext({
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
        }),
      );
      phones.add(context);
      return context;
    },
    async agent(options) {
      const agent = await connectAgent(started(server, "server").baseUrl, options);
      agents.push(agent);
      return agent;
    },
  };
}

let axeSource: string | undefined;

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/**
 * Runs axe-core on the page and fails on any serious or critical violation; the others are
 * printed. axe is evaluated over CDP, which the page's Content-Security-Policy does not govern
 * (a <script> tag would be refused by a strict script-src). A Frame works too (an MCP Apps view
 * in its sandboxed iframe, which axe in the parent cannot reach).
 */
export async function expectNoSeriousAxeViolations(page: Page | Frame): Promise<void> {
  axeSource ??= readFileSync(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: -- axe is injected above, untyped in the page
    const { violations } = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return violations as AxeViolation[];
  });
  const describe = (v: AxeViolation) =>
    `${v.impact ?? "?"} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")})`;
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const minor = violations.filter((v) => !serious.includes(v));
  if (minor.length > 0) console.info(`axe on ${page.url()}:\n  ${minor.map(describe).join("\n  ")}`);
  if (serious.length > 0) {
    throw new Error(`serious/critical axe violations on ${page.url()}:\n  ${serious.map(describe).join("\n  ")}`);
  }
}

/**
 * docs/screenshots/<name>-desktop.png or -phone.png (by the page's context), full page at
 * CSS scale, and only when UCP_SCREENSHOTS=1 (`npm run screenshots`), so ordinary runs never
 * rewrite tracked files.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UCP_SCREENSHOTS !== "1") return;
  const dir = path.join(ROOT, "docs/screenshots");
  mkdirSync(dir, { recursive: true });
  const kind = phones.has(page.context()) ? "phone" : "desktop";
  await page.screenshot({ path: path.join(dir, `${name}-${kind}.png`), fullPage: true, scale: "css" });
}
