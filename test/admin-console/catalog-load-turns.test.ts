/**
 * A large load's check step shares its isolate (issue 28): locally every object and the Worker
 * run in one, on Cloudflare an object's other requests wait on it. Checking a file used to be
 * one stretch of work from the last CSV row to the end of the step (validation, the search
 * index, staging every product in one transaction), so the load's page, which asks the object
 * for its status, waited for all of it: 22 s at 100,000 products with two loads on the machine,
 * and a browser request sent in that stretch could be lost for the whole load
 * (test/browser/console-catalog-load). Here the status is asked for continuously while a
 * 12,000-product file is checked: the object answers between every thousand products. The
 * load is then stopped (its writes fail, it pauses, it is discarded): writing is tested elsewhere.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { JobView } from "../../src/catalog/catalog-job";
import {
  controlKv,
  leanCatalogCsv,
  loadStatus,
  loadsStub,
  noDelays,
  realKv,
  runLoad,
  uploadInParts,
} from "../helpers/catalog-load";
import { type Browser, signIn } from "../helpers/console";

const browser: Browser = { ip: "10.28.9.1" };
const PRODUCTS = 12_000;
vi.setConfig({ testTimeout: 180_000 });

beforeAll(async () => {
  await signIn(browser);
  await noDelays();
});

describe("a large file being checked", () => {
  it("the load's status is answered all through the check, not only when the step ends", async () => {
    const kv = await controlKv();
    const { id } = await uploadInParts(browser, "turns.csv", leanCatalogCsv(PRODUCTS));
    const seen: JobView[] = [];
    for (;;) {
      const view = await loadStatus(id);
      if (!view) throw new Error("the load vanished");
      seen.push(view);
      if (view.phase !== "checking") break;
    }
    kv.failing = true;
    // Once every row is read, the step still validates, indexes and stages every product:
    // the answers that came in that stretch.
    const afterRows = seen.filter((v) => v.phase === "checking" && v.checked_rows === PRODUCTS).length;
    // Before the check took turns: 2 answers in all, none after the rows were read (12 and 94 now).
    expect(seen.length).toBeGreaterThanOrEqual(20);
    expect(afterRows, `answers while checking: ${seen.length}`).toBeGreaterThanOrEqual(3);
    expect((await runLoad(id))?.paused).toBe(true);
    expect(await loadsStub().discard(id)).toBe(true);
    expect((await runLoad(id, ["discarded"]))?.phase).toBe("discarded");
    await realKv();
  });
});
