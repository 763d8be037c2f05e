/**
 * The flags `npm start` takes, read the way `wrangler dev` read them when it ran the store
 * (`--name value` or `--name=value`, the last one winning). `npm start` now serves the
 * deployed bundle on Miniflare itself, so a wrangler dev flag it does not know is refused
 * with the way to get it (`npm run dev` is still `wrangler dev`), never silently dropped.
 */
import { CliError } from "./cli-error";

export interface StartFlags {
  readonly port?: string;
  readonly ip?: string;
  readonly persistTo?: string;
  /** `--var NAME:VALUE`, in order (a later one wins). */
  readonly vars: Readonly<Record<string, string>>;
  readonly inspectorPort?: string;
  readonly inspectorIp?: string;
  /** `--demo`: the demo catalog over what local KV holds (scripts/lib/seed-demo.ts). */
  readonly demo: boolean;
}

const VALUED = new Set(["--port", "--ip", "--persist-to", "--var", "--inspector-port", "--inspector-ip"]);

export function startFlags(argv: readonly string[]): StartFlags {
  const values: Record<string, string> = {};
  const vars: Record<string, string> = {};
  let demo = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--demo") {
      demo = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUED.has(name)) {
      throw new CliError(
        `npm start does not take ${JSON.stringify(arg)} (it takes --port, --ip, --persist-to, --var NAME:VALUE, --demo, --inspector-port, --inspector-ip; every wrangler dev flag: npm run dev -- ${arg})`,
      );
    }
    const value = name === arg ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (name === arg && value.startsWith("--"))) throw new CliError(`${name} needs a value`);
    if (name !== "--var") values[name] = value;
    else {
      const colon = value.indexOf(":");
      if (colon <= 0) throw new CliError(`--var takes NAME:VALUE, got "${value}"`);
      vars[value.slice(0, colon)] = value.slice(colon + 1);
    }
  }
  for (const name of ["--port", "--inspector-port"]) {
    const port = values[name];
    if (port !== undefined && !isPort(port))
      throw new CliError(`${name} must be a port number (1-65535), got "${port}"`);
  }
  return {
    port: values["--port"],
    ip: values["--ip"],
    persistTo: values["--persist-to"],
    vars,
    inspectorPort: values["--inspector-port"],
    inspectorIp: values["--inspector-ip"],
    demo,
  };
}

export function isPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}
