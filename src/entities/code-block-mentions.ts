/**
 * Names in a code block of a document: the packages and names an example
 * imports, the classes it constructs, the API-shaped functions and options
 * it uses, methods called on objects the API made, and the programs a shell
 * example runs. Names the example declares itself, and standard-library
 * modules, are left out: they belong to the example, not to the project.
 */
import type { EntityMention } from "./entity-mention.js";
import { isCamelCase, isPascalCase, isSnakeCase } from "./name-shape.js";
import { CODE_GLOBALS, SHELL_BUILTINS, STOPWORDS } from "./word-lists.js";

/** Method names so common that a call to one says nothing about an API. */
const COMMON_METHODS = new Set(
  `get set has add put post delete patch text json log map filter reduce push pop shift then catch finally
  tostring valueof call apply bind keys values entries foreach find some every join split slice length
  send end on off emit use run start stop close open write read next done`.split(/\s+/),
);
const KEYWORDS = new Set(
  `if for while switch return function catch typeof await async new class def fn func match import export
  from const let var print println printf sizeof elif else case with yield super this self`.split(/\s+/),
);
/** Node's own modules: what an example takes from them is not the project's API. */
const BUILTIN_MODULES = new Set(
  `fs path os http https http2 net url util events stream crypto child_process buffer zlib assert readline dns
  tls worker_threads cluster timers querystring string_decoder vm v8 perf_hooks async_hooks module process`.split(/\s+/),
);
const SHELL_LINE = /^(?:\$\s+)?[a-z][\w.+-]*(?:\s+[^\s(){};]+)*\s*$/;
const SCOPED_PACKAGE = /@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*/g;
const NAME = /^[A-Za-z_$][\w$]*$/;

interface Imports {
  /** Imported names, as exported (not as renamed). */
  names: Set<string>;
  /** Module specifiers of packages (not relative paths, not built-in modules). */
  packages: string[];
}

function symbol(name: string): EntityMention {
  return { name, kind: "symbol", source: "code" };
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BUILTIN_MODULES.has(specifier.split("/")[0] ?? "");
}

/** What the block imports (JavaScript, TypeScript, Python); names from built-in modules are left out. */
function importsOf(code: string): Imports {
  const imports: Imports = { names: new Set(), packages: [] };
  const js = /import\s+(?:type\s+)?(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\*\s+as\s+[\w$]+\s*)?(?:\{([^}]*)\})?\s*from\s*["']([^"']+)["']/g;
  for (const m of code.matchAll(js)) {
    const specifier = m[3] ?? "";
    if (isBuiltin(specifier)) continue;
    if (!specifier.startsWith(".") && !specifier.startsWith("/")) imports.packages.push(specifier);
    if (m[1] !== undefined) imports.names.add(m[1]);
    for (const part of (m[2] ?? "").split(",")) imports.names.add((part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0] ?? "").trim());
  }
  for (const m of code.matchAll(/^\s*from\s+[\w.]+\s+import\s+([\w\s,]+)$/gm)) {
    for (const part of (m[1] ?? "").split(",")) imports.names.add(part.trim().split(/\s+as\s+/)[0] ?? "");
  }
  imports.names.delete("");
  return imports;
}

/** Names the example declares itself: its variables, functions and classes. */
function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var|function|class|def|fn|func)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1] ?? "");
  for (const m of code.matchAll(/\b(?:const|let|var)\s+\{([^}]*)\}\s*=/g)) {
    for (const part of (m[1] ?? "").split(",")) names.add(part.trim().split(/\s*:\s*/).at(-1) ?? "");
  }
  return names;
}

/** Variables holding what an imported function or class returned (`const turso = createClient(…)`). */
function apiObjects(code: string, imported: ReadonlySet<string>): Set<string> {
  const objects = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?(?:new\s+)?([A-Za-z_$][\w$]*)\s*[(<]/g)) {
    if (imported.has(m[2] ?? "")) objects.add(m[1] ?? "");
  }
  return objects;
}

/** Constructed classes, called API-shaped functions, and methods called on objects the API made. */
function calledNames(code: string, imports: Imports, declared: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(/\bnew\s+([A-Z][\w$]*)/g)) if (!declared.has(m[1] ?? "")) names.push(m[1] ?? "");
  for (const m of code.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)\s*\(/g)) {
    const name = m[1] ?? "";
    if (!KEYWORDS.has(name) && !declared.has(name) && (isCamelCase(name) || isSnakeCase(name))) names.push(name);
  }
  const objects = apiObjects(code, imports.names);
  for (const m of code.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\s*\(/g)) {
    const [receiver, method] = [m[1] ?? "", m[2] ?? ""];
    if (objects.has(receiver) && method.length >= 3 && !COMMON_METHODS.has(method.toLowerCase())) names.push(`${receiver}.${method}`);
  }
  return names;
}

/** API-shaped identifiers the example does not declare: option keys (`syncUrl`), constants (`DATABASE_URL`). */
function shapedNames(code: string, declared: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const parts = m[0].split(".");
    const root = parts[0] ?? "";
    const candidates = CODE_GLOBALS.has(root.toLowerCase()) ? parts.slice(1) : parts.slice(0, 1);
    for (const part of candidates) {
      if (declared.has(part)) continue;
      if (isCamelCase(part) || isSnakeCase(part) || (isPascalCase(part) && part.length > 3)) names.push(part);
    }
  }
  return names;
}

/** Removes string literals and comments, which hold prose and data rather than names. */
function withoutLiterals(code: string): string {
  return code
    .replace(/\/\/[^\n]*|#(?![!\[])[^\n]*|\/\*[\s\S]*?\*\//g, " ")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

/** Programs that shell lines run (`npm install x` → `npm`) and packages they name. */
function shellMentions(lines: readonly string[]): EntityMention[] {
  const found: EntityMention[] = [];
  for (const line of lines) {
    const words = line.replace(/^\$\s+/, "").split(/\s+/);
    const command = words[0] === "sudo" ? words[1] : words[0];
    if (command !== undefined && command.length >= 2 && /^[a-z][\w.+-]*$/.test(command) && !SHELL_BUILTINS.has(command) && !STOPWORDS.has(command)) {
      found.push({ name: command, kind: "product", source: "code" });
    }
    for (const m of line.matchAll(SCOPED_PACKAGE)) found.push({ name: m[0], kind: "product", source: "code" });
  }
  return found;
}

/** A package import names the package (a product); a deeper path names a module of it. */
function packageMentions(specifiers: readonly string[]): EntityMention[] {
  return specifiers.flatMap((specifier): EntityMention[] => {
    const base = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] ?? "");
    const product: EntityMention = { name: base, kind: "product", source: "code" };
    return base === specifier ? [product] : [product, symbol(specifier)];
  });
}

/** The mentions of one code block's text. */
export function codeBlockMentions(code: string): EntityMention[] {
  const lines = code.split("\n").map((l) => l.trim()).filter((l) => l.length > 0 && !l.startsWith("#"));
  if (lines.length > 0 && lines.every((line) => SHELL_LINE.test(line) && !/^\s*[a-z_]\w*\s*=/.test(line))) return shellMentions(lines);
  const prompted = shellMentions(lines.filter((line) => /^\$\s+\S/.test(line)));
  if (prompted.length > 0) return prompted;
  const imports = importsOf(code);
  const bare = withoutLiterals(code);
  const declared = declaredNames(bare);
  const names = [...imports.names, ...calledNames(bare, imports, declared), ...shapedNames(bare, declared)];
  return [...packageMentions(imports.packages), ...names.filter((n) => n.length >= 2 && NAME.test(n.replace(".", ""))).map(symbol)];
}
