/**
 * Seed 001 (cart MCP binding): every request example, as written, answered with the
 * example's shape and validated against the official 2026-04-08 cart schema.
 */
import { describe } from "vitest";
import { cartSeedTests } from "../helpers/cart-seed";
import { seedDocument } from "../helpers/seeds";

// Absent seed documents skip every suite that reads them (see test/helpers/ucp-material.plugin.ts).
const seed = seedDocument("001") ?? "";

describe.skipIf(!seed)("seed 001 cart examples", () => {
  cartSeedTests(seed);
});
