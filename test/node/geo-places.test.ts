import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildGeoTable, geoTableModule, regionTaxCountries } from "../../scripts/lib/geo-table";
import { COUNTRY_KEYS, REGION_KEYS } from "../../src/lib/geo/iso3166-table";
import { countryCode, regionCode } from "../../src/lib/geo/places";

describe("countryCode", () => {
  it.each([
    ["Germany", "DE"],
    ["DEU", "DE"],
    ["de", "DE"],
    [" United States ", "US"],
    ["U.S.A.", "US"],
    ["UK", "GB"],
    ["Côte d'Ivoire", "CI"],
    ["cote divoire", "CI"],
  ])("%s → %s", (input, code) => expect(countryCode(input)).toBe(code));

  it("names no country for what is none", () => {
    for (const input of ["Narnia", "XX", "", undefined, "ZZZ"]) expect(countryCode(input)).toBeUndefined();
  });
});

describe("regionCode", () => {
  it("resolves names, codes and prefixed codes where the table has the country", () => {
    expect(regionCode("US", "California")).toBe("CA");
    expect(regionCode("US", "us-ca")).toBe("CA");
    expect(regionCode("CA", "British Columbia")).toBe("BC");
    expect(regionCode("CA", "Québec")).toBe("QC");
    expect(regionCode("US", "Atlantis")).toBeUndefined();
  });

  it("takes only code-shaped input for a country without region names", () => {
    expect(REGION_KEYS.DE).toBeUndefined();
    expect(regionCode("DE", "by")).toBe("BY");
    expect(regionCode("DE", "Bavaria")).toBeUndefined();
  });
});

describe("the generated table", () => {
  it("is what npm run geo:table writes from the installed libraries and this store's TAX (else: run it)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const committed = readFileSync(path.join(root, "src/lib/geo/iso3166-table.ts"), "utf8");
    const regions = regionTaxCountries(path.join(root, "wrangler.toml"));
    expect(regions).toEqual(expect.arrayContaining(["US", "CA"]));
    expect(committed).toBe(geoTableModule(buildGeoTable(regions)));
  });

  it("covers every ISO 3166-1 country by its alpha-3 code", () => {
    expect(new Set(Object.values(COUNTRY_KEYS)).size).toBeGreaterThanOrEqual(249);
  });
});
