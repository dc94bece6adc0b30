/**
 * Import rules check: `npm run lint:imports [-- ROOT] [-- --markdown]`.
 *
 * 1. dependency-cruiser with `.dependency-cruiser.cjs` over `src tools` of
 *    ROOT (default: this repository) - the per-module rules.
 * 2. no-folder-cycle: every module collapsed to its top-level unit (`src/<folder>`,
 *    `src/<file>.ts` for root files, `tools`), and no cycle in that graph.
 *    dependency-cruiser's rules judge one module or one dependency at a time,
 *    so this runs on its JSON graph here.
 * 3. no-sql-outside-store: string and template literals (not comments) of every
 *    .ts file outside src/store, walked with the TypeScript compiler, must not
 *    hold an SQL statement; and no .sql file lives outside src/store.
 *
 * Prints each violation as `error <rule>: <from> → <to>` and exits 1 if there is
 * any, 0 if none, 2 if the check itself failed. `--markdown` prints the rules
 * as a Markdown table (for docs/architecture.md) and checks nothing.
 *
 * Fixture trees (test/fixtures/import-rules/) are checked with the same rules
 * by passing their folder as ROOT; paths in rules are relative to ROOT.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import ts from "typescript";
import { cruise } from "dependency-cruiser";
import type {
  ICruiseOptions,
  ICruiseResult,
  IForbiddenRuleType,
  IRegularForbiddenRuleType,
} from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CONFIG_FILE = path.join(REPO_ROOT, ".dependency-cruiser.cjs");
const TS_CONFIG_FILE = path.join(REPO_ROOT, "tsconfig.json");

/** The folders of a root that are checked (those that exist). */
const CHECKED_FOLDERS = ["src", "tools"];

export const FOLDER_CYCLE_RULE = "no-folder-cycle";
export const SQL_RULE = "no-sql-outside-store";

/** The two checks done here, described like the config's rules for --markdown. */
const SCRIPT_RULES: RuleDescription[] = [
  {
    name: FOLDER_CYCLE_RULE,
    from: "a top-level unit: `src/<folder>`, a root file `src/<file>.ts`, or `tools`",
    to: "a unit that leads back to it (type-only imports count)",
    comment:
      "Top-level folders are the layers; two folders that need each other are one layer in two places, " +
      "and the layering rules above stop meaning anything. Checked on the module graph by scripts/check-imports.ts.",
  },
  {
    name: SQL_RULE,
    from: "any module outside `^src/store/`",
    to: "a string or template literal holding an SQL statement (SELECT … FROM, INSERT INTO, UPDATE … SET, " +
      "DELETE FROM, CREATE/DROP/ALTER TABLE/INDEX/TRIGGER/VIEW, PRAGMA), or a .sql file",
    comment:
      "Every SQL string lives in the store, next to the schema it depends on, so a migration can be checked " +
      "against all its queries in one folder. Comments are not scanned.",
  },
];

export interface Violation {
  rule: string;
  /** the rule's severity; every rule is an error today */
  severity?: string;
  from: string;
  to: string;
  /** extra lines: the cycle, example imports, the SQL text */
  details?: string[];
}

export interface CheckResult {
  violations: Violation[];
  modules: number;
  dependencies: number;
  milliseconds: number;
}

interface RuleDescription {
  name: string;
  from: string;
  to: string;
  comment: string;
}

// ---------------------------------------------------------------------------
// the check

export async function checkImports(root: string = REPO_ROOT): Promise<CheckResult> {
  const started = performance.now();
  const absoluteRoot = path.resolve(root);
  const folders = CHECKED_FOLDERS.filter((folder) => existsSync(path.join(absoluteRoot, folder)));
  if (folders.length === 0) {
    throw new Error(`${absoluteRoot} has none of ${CHECKED_FOLDERS.join(", ")}`);
  }

  const graph = await cruiseGraph(absoluteRoot, folders);
  const violations = [
    ...cruiserViolations(graph),
    ...folderCycles(graph),
    ...sqlOutsideStore(absoluteRoot, folders),
  ];
  return {
    violations,
    modules: graph.summary.totalCruised,
    dependencies: graph.summary.totalDependenciesCruised ?? 0,
    milliseconds: performance.now() - started,
  };
}

async function cruiseGraph(root: string, folders: string[]): Promise<ICruiseResult> {
  const options: ICruiseOptions = {
    ...(await extractDepcruiseOptions(CONFIG_FILE)),
    baseDir: root,
    tsConfig: { fileName: TS_CONFIG_FILE },
    outputType: "json",
  };
  const { output } = await cruise(folders, options, {}, { tsConfig: extractTSConfig(TS_CONFIG_FILE) });
  return typeof output === "string" ? (JSON.parse(output) as ICruiseResult) : output;
}

function cruiserViolations(graph: ICruiseResult): Violation[] {
  return graph.summary.violations.map((violation) => {
    const details: string[] = [];
    if (violation.cycle && violation.cycle.length > 0) {
      details.push(`cycle: ${[violation.from, ...violation.cycle.map(({ name }) => name)].join(" → ")}`);
    }
    if (violation.dependencyTypes?.includes("type-only")) details.push("(type-only import)");
    return {
      rule: violation.rule.name,
      severity: violation.rule.severity,
      from: violation.from,
      to: violation.to,
      ...(details.length > 0 ? { details } : {}),
    };
  });
}

// ---------------------------------------------------------------------------
// no-folder-cycle

/** `src/ingest/read/x.ts` → `src/ingest`; `src/app.ts` → `src/app.ts`; `tools/x.ts` → `tools`. */
export function topLevelUnit(modulePath: string): string | undefined {
  const parts = modulePath.split("/");
  if (parts[0] === "tools") return "tools";
  if (parts[0] !== "src" || parts.length < 2) return undefined;
  return parts.length === 2 ? modulePath : `src/${parts[1]}`;
}

function folderCycles(graph: ICruiseResult): Violation[] {
  /** unit → unit → the module imports behind that edge ("a.ts → b.ts" → type-only?) */
  const edges = new Map<string, Map<string, Map<string, boolean>>>();
  for (const module of graph.modules) {
    const fromUnit = topLevelUnit(module.source);
    if (!fromUnit) continue;
    for (const dependency of module.dependencies) {
      if (dependency.couldNotResolve) continue;
      const toUnit = topLevelUnit(dependency.resolved);
      if (!toUnit || toUnit === fromUnit) continue;
      const targets = edges.get(fromUnit) ?? new Map<string, Map<string, boolean>>();
      edges.set(fromUnit, targets);
      const imports = targets.get(toUnit) ?? new Map<string, boolean>();
      targets.set(toUnit, imports);
      // a module pair may have a value and a type import; it is type-only if all are
      const key = `${module.source} → ${dependency.resolved}`;
      const typeOnly = dependency.dependencyTypes.includes("type-only");
      imports.set(key, (imports.get(key) ?? true) && typeOnly);
    }
  }

  const violations: Violation[] = [];
  for (const component of stronglyConnected(edges)) {
    if (component.length < 2) continue;
    const members = new Set(component);
    const cycle = shortestCycle(component[0]!, members, edges);
    // every edge inside the knot, each with one of the imports behind it
    const details: string[] = [];
    for (const from of component) {
      for (const [to, imports] of [...edges.get(from)!].sort(([a], [b]) => a.localeCompare(b))) {
        if (!members.has(to)) continue;
        const [first, ...rest] = [...imports.keys()].sort();
        const typeOnly = imports.get(first!) ? " (type-only)" : "";
        const more = rest.length > 0 ? ` (+${rest.length} more)` : "";
        details.push(`${from} → ${to}: ${first}${typeOnly}${more}`);
      }
    }
    violations.push({ rule: FOLDER_CYCLE_RULE, from: cycle[0]!, to: cycle.slice(1).join(" → "), details });
  }
  return violations;
}

/** Tarjan's algorithm; components come out with their members sorted. */
function stronglyConnected(edges: Map<string, Map<string, unknown>>): string[][] {
  const nodes = new Set<string>();
  for (const [from, targets] of edges) {
    nodes.add(from);
    for (const to of targets.keys()) nodes.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;

  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Shortest cycle through `start` inside its component: [start, …, start]. */
function shortestCycle(start: string, within: Set<string>, edges: Map<string, Map<string, unknown>>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
      if (!within.has(next)) continue;
      if (next === start) {
        const cycle = [node];
        while (cycle[0] !== start) cycle.unshift(previous.get(cycle[0]!)!);
        return [...cycle, start];
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

// ---------------------------------------------------------------------------
// no-sql-outside-store

/**
 * SQL statements as the store writes them: upper-case keywords, anywhere in a
 * literal. Prose rarely shouts, so help text and error messages pass.
 */
const SQL_ANYWHERE: RegExp[] = [
  /\bSELECT\b[^;]{0,400}?\bFROM\b/,
  /\bINSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b/,
  /\bUPDATE\s+\S+\s+SET\b/,
  /\bDELETE\s+FROM\b/,
  /\bCREATE\s+(?:UNIQUE\s+|VIRTUAL\s+|TEMP\s+|TEMPORARY\s+)*(?:TABLE|INDEX|TRIGGER|VIEW)\b/,
  /\b(?:DROP|ALTER)\s+(?:TABLE|INDEX|TRIGGER|VIEW)\b/,
  /\bPRAGMA\s+[A-Za-z_]+/,
];

/**
 * Lower-case SQL only when the literal starts with the statement and has the
 * statement's shape (a column list, a table name, then the end or a clause),
 * so "select files from the folder" in help text passes.
 */
const IDENT = "[a-z_][a-z0-9_.]*";
const CLAUSE_OR_END = "(?:\\s*;?\\s*$|\\s+(?:where|(?:inner\\s+|left\\s+)?join|group\\s+by|order\\s+by|limit|returning)\\b)";
const SQL_AT_START: RegExp[] = [
  new RegExp(`^\\s*select\\s+(?:distinct\\s+)?(?:\\*|${IDENT}(?:\\s*,\\s*${IDENT})*)\\s+from\\s+${IDENT}${CLAUSE_OR_END}`),
  new RegExp(`^\\s*insert\\s+(?:or\\s+[a-z]+\\s+)?into\\s+${IDENT}\\s*(?:\\(|values\\b|select\\b)`),
  new RegExp(`^\\s*update\\s+${IDENT}\\s+set\\s+${IDENT}\\s*=`),
  new RegExp(`^\\s*delete\\s+from\\s+${IDENT}${CLAUSE_OR_END}`),
  new RegExp(`^\\s*create\\s+(?:unique\\s+|virtual\\s+|temp\\s+|temporary\\s+)*(?:table|index|trigger|view)\\s+(?:if\\s+not\\s+exists\\s+)?${IDENT}`),
  new RegExp(`^\\s*pragma\\s+${IDENT}\\s*(?:=|\\(|;|$)`),
];

export function looksLikeSql(text: string): boolean {
  return SQL_ANYWHERE.some((re) => re.test(text)) || SQL_AT_START.some((re) => re.test(text));
}

function sqlOutsideStore(root: string, folders: string[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of folders.flatMap((folder) => listFiles(root, folder))) {
    if (file.startsWith("src/store/")) continue;
    if (file.endsWith(".sql")) {
      violations.push({ rule: SQL_RULE, from: file, to: "an .sql file" });
    } else if (/\.[cm]?ts$/.test(file) && !file.endsWith(".d.ts")) {
      violations.push(...sqlInSource(file, readFileSync(path.join(root, file), "utf8")));
    }
  }
  return violations;
}

/** Literal text of a string, a template (holes as `?`) or a `+` chain of them. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => `?${span.literal.text}`).join("");
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalText(node.left);
    const right = literalText(node.right);
    if (left === undefined && right === undefined) return undefined;
    return `${left ?? "?"}${right ?? "?"}`;
  }
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  return undefined;
}

export function sqlInSource(file: string, source: string): Violation[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Violation[] = [];
  const visit = (node: ts.Node): void => {
    const text = literalText(node);
    if (text !== undefined && looksLikeSql(text)) {
      const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
      const shown = text.replace(/\s+/g, " ").trim();
      found.push({
        rule: SQL_RULE,
        from: `${file}:${line + 1}`,
        to: shown.length > 70 ? `${shown.slice(0, 67)}...` : shown,
      });
      return; // a `+` chain is judged whole, not again part by part
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function listFiles(root: string, folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((file) => !file.split("/").includes("node_modules"))
    .sort();
}

// ---------------------------------------------------------------------------
// --markdown

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function code(patterns: string | string[]): string {
  return (Array.isArray(patterns) ? patterns : [patterns]).map((pattern) => `\`${pattern}\``).join(", ");
}

function describeFrom(from: IRegularForbiddenRuleType["from"]): string {
  const parts: string[] = [];
  if (from.path) parts.push(code(from.path));
  if (from.pathNot) parts.push(`${parts.length > 0 ? "except" : "any module except"} ${code(from.pathNot)}`);
  return parts.length > 0 ? parts.join(" ") : "any module";
}

function describeTo(to: IRegularForbiddenRuleType["to"]): string {
  if (to.circular) return "a module that leads back to it (type-only imports count)";
  if (to.couldNotResolve) return "an import that does not resolve";
  const parts: string[] = [];
  const onlyProject = to.dependencyTypesNot?.includes("npm") && to.dependencyTypesNot.includes("core");
  if (to.path) parts.push(code(to.path));
  if (to.pathNot) {
    const what = onlyProject ? "any project module except" : parts.length > 0 ? "except" : "any module except";
    parts.push(`${what} ${code(to.pathNot)}`);
  }
  if (onlyProject) parts.push("(npm packages and Node builtins are fine)");
  return parts.join(" ");
}

export async function rulesMarkdown(): Promise<string> {
  const { ruleSet } = await extractDepcruiseOptions(CONFIG_FILE);
  const rules: RuleDescription[] = [
    ...(ruleSet?.forbidden ?? []).map((rule: IForbiddenRuleType) => {
      if (!("to" in rule) || "module" in rule) {
        throw new Error(`--markdown describes from/to rules only, not ${rule.name ?? "an unnamed rule"}`);
      }
      const regular = rule as IRegularForbiddenRuleType;
      return {
        name: regular.name ?? "(unnamed)",
        from: describeFrom(regular.from),
        to: describeTo(regular.to),
        comment: regular.comment ?? "",
      };
    }),
    ...SCRIPT_RULES,
  ];
  const rows = rules.map(
    (rule) => `| \`${rule.name}\` | ${cell(rule.from)} | ${cell(rule.to)} | ${cell(rule.comment)} |`,
  );
  return ["| rule | from | to | why |", "|---|---|---|---|", ...rows].join("\n") + "\n";
}

// ---------------------------------------------------------------------------
// command line

export function formatViolations(violations: Violation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.severity ?? "error"} ${violation.rule}: ${violation.from} → ${violation.to}`,
        ...(violation.details ?? []).map((line) => `    ${line}`),
      ].join("\n"),
    )
    .join("\n");
}

async function main(argv: string[]): Promise<number> {
  const flags = argv.filter((arg) => arg.startsWith("--"));
  const positional = argv.filter((arg) => !arg.startsWith("--"));
  const unknown = flags.filter((flag) => flag !== "--markdown");
  if (unknown.length > 0 || positional.length > 1) {
    process.stderr.write("usage: check-imports [ROOT] [--markdown]\n");
    return 2;
  }
  if (flags.includes("--markdown")) {
    process.stdout.write(await rulesMarkdown());
    return 0;
  }
  const root = path.resolve(positional[0] ?? REPO_ROOT);
  const result = await checkImports(root);
  const seconds = (result.milliseconds / 1000).toFixed(1);
  const summary = `${result.modules} modules, ${result.dependencies} dependencies in ${seconds} s`;
  if (result.violations.length > 0) {
    process.stdout.write(`${formatViolations(result.violations)}\n\n`);
    const rules = new Set(result.violations.map(({ rule }) => rule));
    process.stdout.write(
      `✗ ${result.violations.length} import rule violations (${[...rules].join(", ")}); ${summary}\n` +
        "  rules: .dependency-cruiser.cjs and scripts/check-imports.ts\n",
    );
    return 1;
  }
  process.stdout.write(`✓ import rules: no violations; ${summary}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`check-imports failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
