/**
 * The merchant settings in wrangler.toml: the top-level [vars], or [env.<name>.vars] when
 * an environment is named. Only `KEY = "string"` lines are read, which is all the merchant
 * config uses. Pure, so tests can check generated files against the same reading.
 */
export function parseVars(toml: string, env?: string): Record<string, string> {
  const section = env ? `[env.${env}.vars]` : "[vars]";
  const vars: Record<string, string> = {};
  let inSection = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inSection = line === section;
      continue;
    }
    if (!inSection) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(line);
    if (match?.[1] && match[2] !== undefined) vars[match[1]] = JSON.parse(`"${match[2]}"`);
  }
  return vars;
}
