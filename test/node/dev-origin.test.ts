/**
 * The origin `npm start` names: the one `wrangler dev` really serves for PORT, --port and
 * --ip, or, behind an https terminator, the user's own `--var MERCHANT_ORIGIN:…`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../../scripts/lib/cli-error";
import { flagValue, portAndRest, prepareDevLaunch, publicOrigin, servedOrigin } from "../../scripts/lib/dev-launch";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("portAndRest: the one --port wrangler dev gets", () => {
  it("takes the user's --port (either form) over PORT, and leaves it out of the rest", () => {
    expect(portAndRest(["--port", "9001", "--ip", "127.0.0.1"], "8787")).toEqual({
      port: "9001",
      rest: ["--ip", "127.0.0.1"],
    });
    expect(portAndRest(["--port=9002", "--var", "A:b"], "8787")).toEqual({ port: "9002", rest: ["--var", "A:b"] });
    expect(portAndRest(["--persist-to", "/tmp/s"], "8790")).toEqual({ port: "8790", rest: ["--persist-to", "/tmp/s"] });
  });
});

describe("servedOrigin", () => {
  it("is localhost on PORT by default, or when listening on every interface", () => {
    expect(servedOrigin([], "8821")).toBe("http://localhost:8821");
    expect(servedOrigin(["--ip", "0.0.0.0"], "8821")).toBe("http://localhost:8821");
    expect(servedOrigin(["--ip", "::"], "9000")).toBe("http://localhost:9000");
  });

  it("follows the user's own --port and --ip, in both flag forms, the last one winning", () => {
    expect(servedOrigin(["--port", "9001"], "8787")).toBe("http://localhost:9001");
    expect(servedOrigin(["--port=9002", "--ip=127.0.0.1"], "8787")).toBe("http://127.0.0.1:9002");
    expect(servedOrigin(["--ip", "::1"], "8787")).toBe("http://[::1]:8787");
    expect(flagValue(["--port", "1", "--port=2"], "--port")).toBe("2");
  });

  it("refuses a PORT that is not a port, in one line", () => {
    for (const bad of ["abc", "99999", ""]) {
      expect(() => servedOrigin([], bad)).toThrow(CliError);
    }
    expect(() => servedOrigin([], "abc")).toThrow('PORT must be a port number (1-65535), got "abc"');
  });
});

describe("publicOrigin", () => {
  it("is the served origin unless the user names one", () => {
    expect(publicOrigin(["--port", "9001"], "8787")).toBe("http://localhost:9001");
    expect(publicOrigin(["--var", "OTHER:x"], "8787")).toBe("http://localhost:8787");
  });

  it("is the user's --var MERCHANT_ORIGIN (an https terminator in front), in both flag forms", () => {
    expect(publicOrigin(["--var", "MERCHANT_ORIGIN:https://localhost:9443"], "8787")).toBe("https://localhost:9443");
    expect(publicOrigin(["--var=MERCHANT_ORIGIN:https://shop.test/"], "8787")).toBe("https://shop.test");
    expect(publicOrigin(["--var", "MERCHANT_ORIGIN:https://shop.test:443"], "8787")).toBe("https://shop.test");
  });

  it("refuses a MERCHANT_ORIGIN that is not an origin, in one line", () => {
    for (const bad of ["localhost:9443", "https://shop.test/store", "ftp://shop.test", "https://shop.test/?a=1"]) {
      expect(() => publicOrigin(["--var", `MERCHANT_ORIGIN:${bad}`], "8787")).toThrow(CliError);
    }
    expect(() => publicOrigin(["--var", "MERCHANT_ORIGIN:shop"], "8787")).toThrow(
      'MERCHANT_ORIGIN must be an origin such as https://localhost:9443, got "shop"',
    );
  });
});

describe("prepareDevLaunch behind https", () => {
  it("builds the served discovery for the user's origin and binds the same MERCHANT_ORIGIN", () => {
    const state = mkdtempSync(path.join(tmpdir(), "ucp-dev-origin-"));
    try {
      const args = ["--persist-to", state, "--var", "MERCHANT_ORIGIN:https://localhost:9443"];
      const launch = prepareDevLaunch(ROOT, args, "9400");
      expect(launch.origin).toBe("https://localhost:9443");
      expect(launch.vars).toEqual({ MERCHANT_ORIGIN: "https://localhost:9443" });
      expect(launch.assets.startsWith(state)).toBe(true);
      expect(launch.bundleDir.startsWith(state)).toBe(true);
      const text = readFileSync(path.join(launch.assets, ".well-known", "ucp"), "utf8");
      // The embedded transport is a binding for the checkout page, with no endpoint of its own.
      const endpoints = JSON.parse(text)
        .ucp.services["dev.ucp.shopping"].filter((s: { transport: string }) => s.transport !== "embedded")
        .map((s: { endpoint: string }) => s.endpoint);
      expect(endpoints).toContain("https://localhost:9443/ucp/mcp");
      for (const endpoint of endpoints) expect(endpoint.startsWith("https://localhost:9443/")).toBe(true);
      expect(text).not.toContain("localhost:9400");
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
