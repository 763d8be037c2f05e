/**
 * Seed 001 (cart MCP binding): every request example, as written, answered with the
 * example's shape and validated against the official 2026-04-08 cart schema.
 */
import { describe } from "vitest";
import seed from "../../../shared/seeds/001_cdf505ca0b5a5c3d.txt?raw";
import { cartSeedTests } from "../helpers/cart-seed";

describe("seed 001 cart examples", () => {
  cartSeedTests(seed);
});
