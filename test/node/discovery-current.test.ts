/** The committed profiles are what `npm run discovery` writes from wrangler.toml as wrangler reads it. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readVars } from "../../scripts/lib/wrangler-config";
import { buildConfig, type MerchantVars } from "../../src/config";
import { discoveryFiles } from "../../src/ucp/discovery";
import { ROOT } from "./store-fixture";

const keys = JSON.parse(readFileSync(path.join(ROOT, "signing-keys.json"), "utf8"));
const vars = readVars(path.join(ROOT, "wrangler.toml")) as MerchantVars;
const files = discoveryFiles(buildConfig(vars), keys);

describe("public/.well-known: the root profile and every leaf", () => {
  it("are the root and the 2026-04-08 leaf", () => {
    expect(files.map((f) => f.file)).toEqual([".well-known/ucp", ".well-known/ucp-profiles/2026-04-08"]);
  });

  it.each(files)(
    "$file is current: regenerate with `npm run discovery` after changing wrangler.toml, signing-keys.json or the capability registry",
    ({ file, body }) => {
      expect(readFileSync(path.join(ROOT, "public", file), "utf8")).toBe(body);
    },
  );
});
