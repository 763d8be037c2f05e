/** The committed /.well-known/ucp is what `npm run discovery` writes from wrangler.toml as wrangler reads it. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readVars } from "../../scripts/lib/wrangler-config";
import { buildConfig, type MerchantVars } from "../../src/config";
import { discoveryDocument } from "../../src/ucp/discovery";
import { ROOT } from "./store-fixture";

describe("public/.well-known/ucp", () => {
  it("is current: regenerate with `npm run discovery` after changing wrangler.toml, signing-keys.json or the capability registry", () => {
    const committed = readFileSync(path.join(ROOT, "public/.well-known/ucp"), "utf8");
    const keys = JSON.parse(readFileSync(path.join(ROOT, "signing-keys.json"), "utf8"));
    const vars = readVars(path.join(ROOT, "wrangler.toml")) as MerchantVars;
    expect(committed).toBe(discoveryDocument(buildConfig(vars), keys));
  });
});
