/** The origin `npm start` names: the one `wrangler dev` really serves for PORT, --port and --ip. */
import { describe, expect, it } from "vitest";
import { CliError } from "../../scripts/lib/cli-error";
import { flagValue, servedOrigin } from "../../scripts/lib/dev-launch";

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
