import { withStopWords } from "../../text/stop-words.js";
import { identifierWords } from "../identifier-words.js";

/** What a coding task is searched by. */
export interface TaskTerms {
  /** Full-text terms, most telling first: identifier words, then prose words by frequency. */
  terms: string[];
  /** How much the task stresses each term: 3 for each time it is a word of a code-shaped name, 1 for each plain mention. */
  weights: Map<string, number>;
  /** Code-shaped tokens as written (`parse_config`, `Session.send` → `Session`, `send`): names to look up exactly. */
  identifiers: string[];
  /** Path and module mentions as lower-case path keys: `src/app.ts` → `src/app.ts`, `a.b.c` → `a/b/c`. */
  paths: string[];
  /** In a task, snake_case names read as folder and file (`autodoc_typehints` → `autodoc/typehints`), matched as a whole path tail. */
  optionPaths: string[];
  /** In a task, names a dispatch method may end with (`_print_Integral`, `visit_Call`, `_eval_is_zero` for `Integral`, `Call`, `is_zero`). */
  suffixes: string[];
  /** The scope of a conventional commit subject, lower-cased: `fix(server, client): …` → server, client. */
  scopes: string[];
  /** In a task, names written as a call (`Blueprint(…)`, `obj.send(…)` → `send`): the API a reproduction enters. */
  called: string[];
  /** In a task, the frames of a pasted traceback (file and function), innermost last as Python prints them. */
  frames: Frame[];
}

/** One frame of a traceback: the file (a lower-case path as written), the function it names, and its class when the frame says it (IPython's `Class.name`). */
export interface Frame {
  path: string;
  name: string;
  owner?: string;
}

const COMMIT_SCOPE = /^\s*[a-z]+\(([^)\n]{1,80})\)!?:/i;

/** Scopes a conventional commit subject names: usually a package, folder or module. */
function scopesOf(task: string): string[] {
  const m = COMMIT_SCOPE.exec(task);
  if (!m) return [];
  return [...new Set((m[1] ?? "").split(/[,/|\s]+/).map((s) => s.trim().toLowerCase().replace(/^@/, "")).filter((s) => s.length > 1))];
}

/** Words of prose and of bug reports that say nothing about where code lives: the base stop words and these. */
const NOISE = withStopWords(`
  also am cannot done either else etc even ever however isn itself let like likely make may might must now one per please
  quite rather really seems since thank thanks thing things though thus upon us via want way well whether within without
  yes yet
  bug issue expected actual behavior behaviour describe description reproduce steps instead currently get gets got
  work works working worked use used uses using try tried trying run running happen happens happened see seen think know
  example following something anything nothing someone code traceback recent call last py line
  self cls none null undefined true false feat fix fixes fixed refactor wrongly wrongfully properly correctly incorrectly
`);

/** Frames read from a task's tracebacks at most, the innermost kept. */
const MAX_FRAMES = 40;
/** Most terms sent to the full-text index: more cost time and add little. */
const MAX_TERMS = 64;
const TOKEN = /[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*/gu;
const SLASH_PATH = /(?:[\w.-]+\/)+[\w.-]*\w/g;
const FILE_NAME = /\b[\w-]+\.(?:py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|go|rs|java|rb|php|cs|c|h|cc|cpp|hpp|sh)\b/g;
const CODE_SPAN = /`([^`\n]+)`/g;

/** Shaped like code rather than prose: snake_case, camelCase, dotted, `$`, or a call. */
function codeShaped(token: string, next: string): boolean {
  return /_|\$|\.|\p{Ll}\p{Lu}|\p{Lu}.*\p{Lu}.*\p{Ll}/u.test(token) || next === "(";
}

function pathMentions(task: string): string[] {
  const found = new Set<string>();
  for (const m of task.matchAll(SLASH_PATH)) if (/[\p{L}]/u.test(m[0])) found.add(m[0]);
  for (const m of task.matchAll(FILE_NAME)) found.add(m[0]);
  for (const m of task.matchAll(TOKEN)) if (/^[a-z_]\w*(\.[a-z_]\w*){2,}$/.test(m[0])) found.add(m[0].replace(/\./g, "/"));
  return [...found].map((p) => p.replace(/^[./]+/, "").toLowerCase()).filter((p) => p.length > 2);
}

/** Lines an interpreter or a test runner prints on start (version, build, help hints, environment): a banner, not the issue. */
const BANNER_LINE = new RegExp(
  [
    String.raw`(?:I?Python|PyPy) \d+\.\d+\S* (?:\||\(|--)`,
    String.raw`Type ["'](?:help|copyright)["']`,
    String.raw`(?:\?|%quickref|help|object\?)[ \t]+->`,
    // A test runner's session header: environment, not the issue.
    String.raw`=+ test session starts`,
    String.raw`platform \w+ -- Python \d`,
    String.raw`(?:rootdir|cachedir|plugins|configfile):`,
    String.raw`collected \d+ items?\b`,
  ].map((line) => String.raw`^[ \t\x60]*${line}[^\n]*$`).join("|"),
  "gm",
);

/**
 * A task without the banners pasted into it: an interpreter session's
 * (`Python 3.6.0 |Anaconda…| (default, …)`, `Type "copyright", "credits"…`,
 * IPython's help hints) and a test run's header (`platform linux -- Python
 * 3.9, pytest-7.1, pluggy-1.0`, `rootdir:`, `plugins:`). Their words
 * (interactive, copyright, license, help, platform, plugins) name modules
 * of their own in a project and otherwise draw the ranking to them.
 */
export function withoutBanners(task: string): string {
  return task.replace(BANNER_LINE, "");
}

/** Words of a question past which it reads as a task (an issue, a commit message) rather than a search. */
export const SHORT_QUESTION = 16;

/** True when a question reads as a task (an issue, a bug report, a commit message) rather than a search. */
export function isTask(query: string): boolean {
  return query.trim().split(/\s+/).length > SHORT_QUESTION;
}

/**
 * A task's title: its first non-empty line, when more lines follow and it
 * holds 2 to {@link SHORT_QUESTION} words (an issue's heading, a commit's
 * subject); undefined otherwise.
 */
export function taskTitle(task: string): string | undefined {
  const lines = task.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length < 2) return undefined;
  const words = lines[0]!.split(/\s+/).length;
  return words >= 2 && words <= SHORT_QUESTION ? lines[0] : undefined;
}

const SNAKE_NAME = /^[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)+$/;

/**
 * A task's snake_case names read as a folder and a file: a configuration
 * option is often named after the module that reads it
 * (`autodoc_typehints` for `ext/autodoc/typehints.py`). Matched as a whole
 * path tail only, never by its last word alone, so `get_value` names no
 * `value.py`.
 */
function optionPathsOf(identifiers: readonly string[]): string[] {
  return [...new Set(identifiers.filter((id) => SNAKE_NAME.test(id)).map((id) => id.replace(/_/g, "/")))];
}

function identifiersOf(task: string): string[] {
  const found = new Set<string>();
  const quoted = new Set([...task.matchAll(CODE_SPAN)].flatMap((m) => [...(m[1] ?? "").matchAll(TOKEN)].map((t) => t[0])));
  for (const m of task.matchAll(TOKEN)) {
    const next = task[(m.index ?? 0) + m[0].length] ?? "";
    if (!codeShaped(m[0], next) && !quoted.has(m[0])) continue;
    const parts = m[0].split(".");
    // In `pkg.module.Class.method` the lower-case leading parts name modules: paths, not declarations.
    const named = parts.filter((p, i) => i === parts.length - 1 || !/^[a-z0-9_]+$/.test(p) || p.includes("_"));
    // A rule of underscores (`_______` under a heading or a test report) is no name.
    for (const part of named) if (part.length > 1 && /\p{L}/u.test(part) && !NOISE.has(part.toLowerCase())) found.add(part);
  }
  return [...found];
}

/** Names written right before `(`: the last part of a dotted call, as written. */
function calledNames(task: string): string[] {
  const found = new Set<string>();
  for (const m of task.matchAll(TOKEN)) {
    if (task[(m.index ?? 0) + m[0].length] !== "(") continue;
    const last = m[0].split(".").at(-1) ?? "";
    if (last.length > 1 && !NOISE.has(last.toLowerCase())) found.add(last);
  }
  return [...found];
}

/**
 * A traceback's frames, in the three shapes Python's tools print: the
 * interpreter's `File "a/b.py", line 3, in name`, IPython's `File
 * ~/a/b.py:841, in Class.name(…)` and its older `a/b.py in name(…)`.
 */
const FRAME = /File "?([^"\n,]+?\.pyx?)"?(?:, line \d+|:\d+),? in ([\w.]+)|^[ \t]*(\S+\.pyx?) in ([\w.]+)\(/gm;

/** The frames of the tracebacks a task pastes, innermost last; `<module>`, `<listcomp>` and the like name no declaration. */
function framesOf(task: string): Frame[] {
  return [...task.matchAll(FRAME)].flatMap((m): Frame[] => {
    const parts = (m[2] ?? m[4] ?? "").split(".");
    const name = parts.at(-1) ?? "";
    const path = (m[1] ?? m[3] ?? "").replace(/\\/g, "/").replace(/^[~.]?\/+/, "").toLowerCase();
    if (path.length === 0 || !/^[\p{L}_]/u.test(name)) return [];
    return [parts.length > 1 ? { path, name, owner: parts.at(-2)! } : { path, name }];
  });
}

const FENCE_LINE = /^\s*(?:```|~~~)/;
const INDENTED_LINE = /^(?: {4}|\t)/;

/**
 * A task's prose and what it pastes (the lines of fenced blocks, and
 * lines indented as a block outside them), each as text: a reproduction,
 * a session, a repr, a log, a package listing.
 */
export function splitPasted(task: string): { prose: string; pasted: string } {
  const prose: string[] = [];
  const pasted: string[] = [];
  let fenced = false;
  for (const line of task.split(/\r?\n/)) {
    if (FENCE_LINE.test(line)) fenced = !fenced;
    else (fenced || INDENTED_LINE.test(line) ? pasted : prose).push(line);
  }
  return { prose: prose.join("\n"), pasted: pasted.join("\n") };
}

/**
 * The terms, identifiers and paths of a task in prose (with code, paths
 * and tracebacks in it). `pastedWeight` is what one plain mention of a
 * word inside a pasted block counts (1: as much as in the prose); a word
 * of a code-shaped name counts 3 wherever it is written.
 */
export function taskTerms(task: string, pastedWeight = 1): TaskTerms {
  const identifiers = identifiersOf(task);
  const weight = new Map<string, number>();
  const add = (word: string, w: number) => {
    if (word.length < 2 || NOISE.has(word) || /^\d+$/.test(word)) return;
    weight.set(word, (weight.get(word) ?? 0) + w);
  };
  for (const id of identifiers) for (const word of identifierWords(id)) add(word, 3);
  const { prose, pasted } = pastedWeight === 1 ? { prose: task, pasted: "" } : splitPasted(task);
  const mentions = (text: string, w: number) => {
    for (const m of text.matchAll(TOKEN)) for (const part of m[0].split(".")) for (const word of identifierWords(part)) add(word, w);
  };
  mentions(prose, 1);
  mentions(pasted, pastedWeight);
  const terms = [...weight.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_TERMS).map(([t]) => t);
  return { terms, weights: new Map(terms.map((t) => [t, weight.get(t) ?? 1])), scopes: scopesOf(task), optionPaths: isTask(task) ? optionPathsOf(identifiers).slice(0, MAX_TERMS) : [], suffixes: isTask(task) ? identifiers.slice(0, MAX_TERMS) : [], called: isTask(task) ? calledNames(task).slice(0, MAX_TERMS) : [], frames: isTask(task) ? framesOf(task).slice(-MAX_FRAMES) : [], identifiers: identifiers.slice(0, MAX_TERMS), paths: pathMentions(task).slice(0, MAX_TERMS) };
}
