/**
 * The native stand-ins wrangler.toml's [alias] gives mimetext's browser build for two Babel
 * helpers behave as the helpers do on everything mimetext passes them (the end-to-end email
 * test runs mimetext with them, through wrangler's bundle).
 */
import { describe, expect, it } from "vitest";
import defineProperty from "../../src/notify/mimetext-shims/define-property";
import trim from "../../src/notify/mimetext-shims/trim";

// mimetext's own dependency (not ours, so untyped): the helpers the shims replace.
const helper = async (specifier: string) => ((await import(specifier)) as { default: unknown }).default;
const babelDefineProperty = (await helper(
  "@babel/runtime-corejs3/helpers/esm/defineProperty",
)) as typeof defineProperty;
const babelTrim = (await helper("@babel/runtime-corejs3/core-js/instance/trim")) as typeof trim;

describe("mimetext shims", () => {
  it("defineProperty defines own, enumerable, writable fields, over an existing one too", () => {
    for (const define of [defineProperty, babelDefineProperty]) {
      class Box {
        constructor() {
          define(this, "headers", undefined);
          define(this, "headers", { a: 1 });
          define(this, "eol", "\r\n");
        }
      }
      const box = new Box() as Record<string, unknown>;
      expect(Object.keys(box)).toEqual(["headers", "eol"]);
      expect(box.headers).toEqual({ a: 1 });
      expect(Object.getOwnPropertyDescriptor(box, "eol")).toEqual({
        value: "\r\n",
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
  });

  it("trim returns the string's trim, called on it as mimetext does", () => {
    for (const value of ["  Demo <a@b.example> ", "\tx\r\n", ""]) {
      expect(trim(value).call(value)).toBe(babelTrim(value).call(value));
    }
  });
});
