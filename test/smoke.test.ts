import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("answers", async () => {
  const res = await exports.default.fetch("https://shop.example.com/x");
  expect(await res.text()).toBe("ok");
});
