/**
 * The house rules' import arrows (../shared/DESIGN.md "Shape" and "House rules"), written down
 * once: every file of src/, durable-objects/ and schemas/ belongs to one area, and each area
 * names the areas it may import. Anything not listed is refused, types included, unless the
 * area lists it under `typesOnly`. Run by `npm run lint` (scripts/check-imports.ts) and proven
 * by test/node/import-arrows.test.ts, which feeds it test/fixtures/import-rules/.
 *
 * Imports are read with TypeScript's own parser: `import`, `import type`, `export … from`,
 * `import("…")` calls and `import("…")` types. Packages (`zod`, `cloudflare:workers`) are not
 * areas; the rest of biome.json keeps SqlStorage inside durable-objects/.
 */
import path from "node:path";
import ts from "typescript";

export type Area =
  | "entry"
  | "config"
  | "lib"
  | "schemas"
  | "i18n"
  | "ucp"
  | "auth"
  | "domain"
  | "notify"
  | "objects"
  | "tools"
  | "pipeline"
  | "mcp"
  | "rest"
  | "webhooks"
  | "pages"
  | "console";

/** Where each area lives: a path without extension, matched whole or as a folder. First match wins. */
export const AREAS: ReadonlyArray<readonly [Area, readonly string[]]> = [
  ["entry", ["src/index", "src/router"]],
  ["config", ["src/config", "src/merchant-vars"]],
  ["lib", ["src/lib"]],
  ["schemas", ["schemas"]],
  ["i18n", ["src/i18n"]],
  ["ucp", ["src/ucp"]],
  ["auth", ["src/auth"]],
  ["domain", ["src/cart", "src/checkout", "src/catalog", "src/order", "src/payment", "src/permalink"]],
  ["notify", ["src/notify"]],
  ["objects", ["durable-objects"]],
  ["tools", ["src/tools"]],
  ["pipeline", ["src/pipeline"]],
  ["mcp", ["src/mcp"]],
  ["rest", ["src/rest"]],
  ["webhooks", ["src/payment-webhooks"]],
  ["pages", ["src/pages", "src/embedded"]],
  ["console", ["src/admin"]],
];

interface Arrows {
  /** Areas this one may import from (its own area always). */
  readonly may: readonly Area[];
  /** Areas it may take types from, never a value. */
  readonly typesOnly?: readonly Area[];
  /** The line in DESIGN.md this row keeps, shown with each refusal. */
  readonly why: string;
}

/** Below everything: read by all, reading nothing of the store's own. */
const BASE: readonly Area[] = ["lib", "config", "schemas"];

export const ARROWS: Readonly<Record<Area, Arrows>> = {
  entry: {
    may: AREAS.map(([area]) => area),
    why: "the Worker's entry and its one route table wire every area together",
  },
  lib: { may: [], why: "src/lib/ is the bottom: it imports no config, domain or protocol code" },
  config: {
    may: ["lib", "schemas"],
    why: "config reads [vars]; it imports no domain code (each area's settings live in src/config/)",
  },
  schemas: { may: ["lib"], why: "schemas/ are the UCP types' zod schemas; they import no domain code" },
  i18n: {
    may: ["lib", "domain"],
    why: "src/i18n/ holds the store's words, shared by pages, email and views; it reads the model only to name its things",
  },
  ucp: {
    may: [...BASE, "i18n", "auth", "domain"],
    why: "src/ucp/ is protocol vocabulary: it may read the model, never a transport, the console, the tool layer, pages or an object",
  },
  auth: {
    may: [...BASE, "ucp"],
    why: "src/auth/ says who is calling, below the pipeline: no transport, pipeline, tool layer, page, console or object",
  },
  domain: {
    may: [...BASE, "ucp", "auth"],
    why: "pure domain logic in src/<domain>/ imports no object, tool layer, transport, page, console or email",
  },
  notify: {
    may: [...BASE, "i18n", "domain"],
    why: "src/notify/ builds and sends the order email from the model: no page, tool layer, transport, console or object",
  },
  objects: {
    may: [...BASE, "ucp", "auth", "domain", "notify"],
    why: "durable-objects/ are below the tool layer: objects never import tools, transports, pages or the console",
  },
  tools: {
    may: [...BASE, "i18n", "ucp", "auth", "domain", "objects"],
    why: "the tool layer calls objects and domain code; it never imports a transport, the pipeline, pages or the console",
  },
  pipeline: {
    may: [...BASE, "ucp", "auth", "domain", "tools"],
    typesOnly: ["objects"],
    why: "the pipeline both bindings share runs tools; it takes only types from durable-objects/",
  },
  mcp: {
    may: [...BASE, "i18n", "ucp", "auth", "tools", "pipeline", "pages"],
    typesOnly: ["objects"],
    why: "the MCP binding translates to and from the tool pipeline (its Apps views wear the pages' look); only types from durable-objects/",
  },
  rest: {
    may: [...BASE, "i18n", "ucp", "auth", "tools", "pipeline"],
    typesOnly: ["objects"],
    why: "the REST binding translates to and from the tool pipeline; only types from durable-objects/",
  },
  webhooks: {
    may: [...BASE, "ucp", "domain", "tools"],
    typesOnly: ["objects"],
    why: "the PSP's webhooks are a transport: only types from durable-objects/, no page or console",
  },
  pages: {
    may: [...BASE, "i18n", "ucp", "auth", "domain", "tools"],
    why: "buyer pages reach state only through the tool layer: no object (not even a type), transport or console",
  },
  console: {
    may: [...BASE, "i18n", "ucp", "auth", "domain", "tools", "pages"],
    typesOnly: ["objects"],
    why: "the console takes only types from durable-objects/ and no transport",
  },
};

export interface Import {
  readonly specifier: string;
  readonly line: number;
  readonly typeOnly: boolean;
}

export interface Violation extends Import {
  readonly file: string;
  readonly from: Area;
  /** "outside": a path no area holds (a file at the repository's root, test/, scripts/). */
  readonly to: Area | "outside";
  readonly message: string;
}

/** The area of a repository path (with or without extension), or undefined outside the checked tree. */
export function areaOf(repoPath: string): Area | undefined {
  const bare = repoPath.replace(/\\/g, "/").replace(/\.(d\.ts|ts|tsx|js|mjs)$/, "");
  for (const [area, roots] of AREAS) {
    if (roots.some((root) => bare === root || bare.startsWith(`${root}/`))) return area;
  }
  return undefined;
}

/** Every module a source names, with its line and whether it takes only types. */
export function importsOf(fileName: string, text: string): Import[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (node: ts.Node, literal: ts.Expression | undefined, typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: literal.text, line, typeOnly });
  };
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allNamedTypes =
        named !== undefined && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, clause !== undefined && (clause.isTypeOnly || (!clause.name && allNamedTypes)));
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause;
      const allNamedTypes =
        named !== undefined && ts.isNamedExports(named) && named.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, node.isTypeOnly || allNamedTypes);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    }
  }
  // `import("…")` calls and types can sit anywhere; walk the tree only when the text has one.
  if (!/\bimport\s*\(/.test(text)) return found;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort((a, b) => a.line - b.line);
}

/** The arrows `text`, read as the file at `repoPath`, breaks. Packages and unchecked paths pass. */
export function checkSource(repoPath: string, text: string): Violation[] {
  const file = repoPath.replace(/\\/g, "/");
  const from = areaOf(file);
  if (!from) return [];
  const rules = ARROWS[from];
  const out: Violation[] = [];
  for (const imp of importsOf(file, text)) {
    if (!imp.specifier.startsWith(".")) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), imp.specifier));
    const to = areaOf(target);
    if (to === from) continue;
    if (to !== undefined && rules.may.includes(to)) continue;
    if (to !== undefined && imp.typeOnly && rules.typesOnly?.includes(to)) continue;
    const what = to === undefined ? `${target} (outside the checked areas)` : `${to}${imp.typeOnly ? " (a type)" : ""}`;
    const hint = to !== undefined && rules.typesOnly?.includes(to) ? " Import only types from it." : "";
    out.push({
      ...imp,
      file,
      from,
      to: to ?? "outside",
      message: `${from} may not import ${what}: ${rules.why}.${hint}`,
    });
  }
  return out;
}
