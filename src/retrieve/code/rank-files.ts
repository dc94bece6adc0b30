import type { Queryable } from "../../store/db.js";
import { pathsOfFiles } from "../../store/code/code-graph-reads.js";
import { declarationsNamed } from "../../store/code/declaration-reads.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";
import { declaredFilePostings, filePostings, searchFiles } from "../../store/search/lexical-search.js";
import { searchSymbols } from "../../store/search/symbol-search.js";
import { identifierParts, ftsAnyOf, queryTerms } from "../query-terms.js";
import { stemmer } from "stemmer";
import { STOP_WORDS } from "../../text/stop-words.js";
import { isTask, SHORT_QUESTION, taskTerms, taskTitle } from "./task-terms.js";
import { isPeripheralPath, isTestPath } from "./test-paths.js";

export { isTask };

/**
 * The one file ranking of code questions, shared by `code_context_pack` and
 * `memory_query`: which files an agent should open for a question, best
 * first. Each kind of evidence is scaled to 0..1 and weighed:
 *
 * - `text`: BM25 over whole files (path, then the file's cells);
 * - `declarations`: BM25 over declarations (names, header, doc, path, body),
 *   a file counting its best three, each half the one before (saturation:
 *   a file of many weak matches does not outrank one strong one);
 * - `stem` / `folder`: the question's words in the file's name or its
 *   folders' names, weighed by rarity, and a file named exactly as the
 *   symbol asked for or as adjacent words of the question run together;
 * - `defines`: the file declares a name the question writes (a bare
 *   identifier query, a code-shaped word, a capitalised word), type-like
 *   declarations above functions above the rest, shared among the files
 *   declaring it;
 * - `extra`: evidence the caller brings (the code pack's graph walk and
 *   declaration standing), as a prior, never a flood;
 * - the sum but `extra` is scaled by `coverage`: the share of the question's rarity
 *   (IDF over files) a file holds, its declarations' bodies included, raised
 *   to `rarity`, so the one file that holds the distinctive word outranks
 *   the many holding the common ones;
 * - and by the path's prior: tests, examples and other folders beside the
 *   source, vendored and generated code, and declaration files (`.d.ts`)
 *   count less.
 */
export interface FileRankWeights {
  text: number;
  declarations: number;
  stem: number;
  folder: number;
  defines: number;
  extra: number;
  rarity: number;
  tests: number;
  peripheral: number;
  vendored: number;
  declarationFile: number;
  /** Prose beside the code (Markdown, text, licences): a code question asks for code. */
  prose: number;
  /** Factor on `defines` when the whole question is one name. */
  symbolQuery: number;
  /** 1: capitalised prose words past the first are names asked for; 0: only code-shaped words and code spans are. */
  proseNames: number;
  /** 1: a file holds the words its declarations' bodies use (coverage and rarity); 0: only its document's (headers, docs). */
  bodies: number;
  /** The name evidence (`stem`, 0..1) of a file named by adjacent words of the question ("JSON element" → `JsonElement.java`); 0: none. */
  compounds: number;
  /** A task's title ranked as a short question, its scores added at this weight (see {@link titleScores}); 0: none. */
  title: number;
  /**
   * What a plain mention of a word in a task's pasted blocks (code
   * fences, indented lines) counts toward the order and stress of its
   * terms, a mention in its prose counting 1 (see {@link TASK_RANK_WEIGHTS}).
   */
  pasted: number;
}

/**
 * Tuned on the semble split (all 21 repositories, docs/benchmarks.md): a
 * file's name says more than its text (stem 1.3, text 0.7), and coverage of
 * the question's rarity is a softer factor (exponent 0.35) than it was on
 * the first 14 repositories, where weaker name evidence needed it. A file
 * holds what its declarations' bodies hold (`bodies`), a file named by
 * adjacent words of the question is named for it (`compounds`), and the
 * code pack's own standing weighs 0.25 (0.5 let hub files it walks to
 * push the named file down).
 */
export const FILE_RANK_WEIGHTS: FileRankWeights = {
  text: 0.7, declarations: 1.5, stem: 1.3, folder: 0.2, defines: 1, extra: 0.25, rarity: 0.35,
  tests: 0.3, peripheral: 0.5, vendored: 0.3, declarationFile: 0.5, prose: 0.5, symbolQuery: 3, proseNames: 1, bodies: 1, compounds: 1, title: 0, pasted: 1,
};

/**
 * The weights for a task (an issue, a bug report: over
 * {@link SHORT_QUESTION} words). A whole issue holds dozens of words, most
 * of them common; its lexical evidence is spread thin, so the caller's
 * structural standing of a file (the code pack's declarations and graph
 * walks from the names the task writes) weighs twelve times a question's.
 * Capitalised prose words (`The`, `When`, `Python`) are not names in an
 * issue: only code-shaped words and code spans are. Text, stem and
 * rarity stay as they were when these weights were chosen (SWE-bench's
 * issues are no short questions). The title, ranked as a short question,
 * adds its own scores at 0.4: a vague title's best file scores about 1.2
 * there and gains what the tenth pass's half weight gave it (at 1 generic
 * title words, `versions`, `domain`, lifted files over the gold file),
 * while a title that names its file scores 2 to 4 and gains more
 * (docs/benchmarks.md, tenth and eleventh passes). A plain word the
 * task's pasted blocks repeat (a repr's `time` and `datetime64` columns,
 * a log's or a listing's words) counts a quarter per mention among its
 * terms, in the file ranking and in the pack's declarations
 * (rank-declarations.ts), so the words the prose writes about the problem
 * come before the output's: xarray-4248's `Dataset` repr drew the
 * ranking to the time-coding modules (docs/benchmarks.md, thirteenth
 * pass).
 */
export const TASK_RANK_WEIGHTS: FileRankWeights = { ...FILE_RANK_WEIGHTS, text: 1, stem: 1, rarity: 0.5, extra: 3, proseNames: 0, bodies: 0, compounds: 0, title: 0.4, pasted: 0.25 };

export interface RankedCodeFile {
  fileId: string;
  path: string;
  score: number;
}

/** Files an answer lists at least, when the ranking has them: the list an agent opens. */
export const MIN_FILES = 10;

const FILE_POOL = 100;
const DECLARATION_POOL = 300;
/** Question terms whose rarity is read (the most telling first). */
const MAX_RARITY_TERMS = 12;
/** Files returned at most. */
const MAX_FILES = 50;

const TYPE_LIKE = new Set(["class", "interface", "type", "enum", "struct", "trait", "namespace", "module", "protocol", "object", "record", "union"]);
const CALLABLE = new Set(["function", "method", "constructor", "macro"]);
/**
 * Folders of code copied in from other projects. A `packages` folder
 * inside a package (`requests/packages/urllib3`) holds distributions
 * vendored into it, as `_vendor` does (`pip/_vendor`); at the root,
 * `packages/` is a monorepo's own source and counts in full.
 */
const VENDORED = /(^|\/)(vendor|vendored|_vendor|third[_-]?party|node_modules|external|extern|deps)\/|[^/]\/packages\//i;
const DECLARATION_FILE = /\.d\.[cm]?ts$/i;
const PROSE_FILE = /(\.(md|mdx|markdown|rst|txt|adoc|asciidoc)|(^|\/)(license|licence|copying|notice|authors|changelog|changes)[^/]*)$/i;

/** A question that is one identifier, maybe qualified (`Sinatra::Base`, `flask.Flask`, `Foo#bar`): a symbol lookup. */
const SYMBOL_QUERY = /^\s*[\p{L}_$][\p{L}\p{N}_$]*(?:(?:::|\.|#|\\|\/)[\p{L}_$][\p{L}\p{N}_$]*)*\s*$/u;

export function isSymbolQuery(query: string): boolean {
  return SYMBOL_QUERY.test(query);
}

const CAPITALISED = /^\p{Lu}[\p{L}\p{N}_$]*\p{Ll}/u;

/** Names the question asks for by name: a symbol query's parts, code-shaped words, capitalised words past the first (when `prose`). */
export function askedNames(query: string, prose = true): string[] {
  if (isSymbolQuery(query)) return query.trim().split(/::|\.|#|\\|\//).filter(Boolean);
  const { identifiers } = taskTerms(query);
  if (!prose) return identifiers;
  const words = query.split(/[^\p{L}\p{N}_$]+/u).filter(Boolean);
  const capitalised = words.slice(1).filter((w) => CAPITALISED.test(w) && w.length > 2);
  return [...new Set([...identifiers, ...capitalised])];
}

/**
 * The question's first word when it may name a declaration: capitalised,
 * longer than two letters, no stop word (`Column definition and column
 * types`, `Codec combining Encoder and Decoder`, `Transaction block and
 * database session management`). Grammar capitalises a sentence's first
 * word too (`Handle`, `Parse`), so it counts as a name only where a
 * declaration is spelled exactly so.
 */
export function leadingName(query: string): string | undefined {
  if (isSymbolQuery(query)) return undefined;
  const first = query.trim().split(/[^\p{L}\p{N}_$]+/u)[0] ?? "";
  return CAPITALISED.test(first) && first.length > 2 && !STOP_WORDS.has(first.toLowerCase()) ? first : undefined;
}

/**
 * A short question's terms are all its words but stop words (`line` in "line
 * formatter output" is the point); a task's drop the words bug reports use
 * everywhere (task-terms.ts).
 */
function searchTerms(query: string, w: FileRankWeights): string[] {
  return query.split(/\s+/).length <= SHORT_QUESTION ? queryTerms(query) : taskTerms(query, w.pasted).terms;
}

/** Spellings a name may be declared under: as written, lower-case, capitalised. */
function spellings(names: readonly string[]): string[] {
  return [...new Set(names.flatMap((n) => [n, n.toLowerCase(), n[0]!.toUpperCase() + n.slice(1)]))];
}

const normal = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
/** A word without a plural `s` (blueprints → blueprint), so names and questions meet. */
const singular = (w: string) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);
/**
 * A word's Porter stem, so a name and a question meet across inflections
 * (`resolveResponse` for "requests are resolved", `formatter` for "error
 * formatting", `serialize` for "serialization"), as the full-text index's
 * own porter tokenizer already meets them in file texts. The `stemmer`
 * package: the algorithm as published, small, no dependencies.
 */
const stemOf = (w: string) => stemmer(w);

/**
 * Runs of two or three adjacent words of the question, no stop word
 * between, each stemmed: the names a question spells as words ("JSON
 * element" for `JsonElement`, "delete statement" for `DeleteStatement`).
 */
function compounds(query: string): Set<string> {
  return new Set(wordRuns(query).map((run) => run.map(stemOf).join(" ")));
}

/** Runs of two or three adjacent words of the question, lower-case, no stop word between. */
function wordRuns(query: string): string[][] {
  const out: string[][] = [];
  const words = query.split(/\s+/).flatMap((w) => identifierParts(w));
  for (let i = 0; i < words.length; i++) {
    for (let k = 2; k <= 3 && i + k <= words.length; k++) {
      const run = words.slice(i, i + k);
      if (run.some((w) => STOP_WORDS.has(w))) break;
      out.push(run);
    }
  }
  return out;
}

function pathWords(path: string): { stem: Set<string>; stemWhole: string; wholeStem: string; folders: Set<string>; run: string } {
  const parts = path.split("/");
  const file = parts.at(-1) ?? "";
  const stemName = file.replace(/(\.[^.]+)+$/, "") || file;
  const stem = new Set([...identifierParts(stemName), normal(stemName)].map(stemOf));
  const folders = new Set(parts.slice(Math.max(0, parts.length - 3), -1).flatMap((p) => [...identifierParts(p), normal(p)]).map(stemOf));
  const named = identifierParts(stemName);
  return { stem, stemWhole: singular(normal(stemName)), wholeStem: stemOf(normal(stemName)), folders, run: named.length > 1 ? named.map(stemOf).join(" ") : "" };
}

function pathPrior(path: string, w: FileRankWeights): number {
  if (isTestPath(path)) return w.tests;
  if (VENDORED.test(path)) return w.vendored;
  if (isPeripheralPath(path)) return w.peripheral;
  if (PROSE_FILE.test(path)) return w.prose;
  return DECLARATION_FILE.test(path) ? w.declarationFile : 1;
}

function scaled(scores: ReadonlyMap<string, number>): Map<string, number> {
  const top = Math.max(0, ...scores.values());
  return new Map([...scores].map(([k, v]) => [k, top > 0 ? v / top : 0]));
}

/** Each file's best three declaration scores, each half the one before. */
function saturated(hits: ReadonlyArray<{ fileId: string; score: number }>): Map<string, number> {
  const perFile = new Map<string, number[]>();
  for (const h of hits) perFile.set(h.fileId, [...(perFile.get(h.fileId) ?? []), h.score]);
  return scaled(new Map([...perFile].map(([f, s]) => [f, s.sort((a, b) => b - a).slice(0, 3).reduce((sum, x, i) => sum + x / 2 ** i, 0)])));
}

/** How strongly each file defines a name the question asks for: kind, nesting and how many files share the name. */
function definitions(named: readonly DeclarationBrief[], asked: readonly string[]): Map<string, number> {
  const wanted = new Set(asked.map(normal));
  const filesOf = new Map<string, Set<string>>();
  for (const d of named) if (wanted.has(normal(d.name))) filesOf.set(normal(d.name), (filesOf.get(normal(d.name)) ?? new Set()).add(d.fileId));
  const out = new Map<string, number>();
  for (const d of named) {
    const files = filesOf.get(normal(d.name));
    if (!files) continue;
    const kind = TYPE_LIKE.has(d.kind) ? 1 : CALLABLE.has(d.kind) ? 0.7 : 0.4;
    const s = (kind * (d.depth > 0 ? 0.6 : 1) * (d.name === asked.find((a) => normal(a) === normal(d.name)) ? 1 : 0.8)) / Math.sqrt(files.size);
    out.set(d.fileId, Math.max(out.get(d.fileId) ?? 0, s));
  }
  return out;
}

interface Rarity {
  term: string;
  idf: number;
  holders: Set<string>;
}

/**
 * Each searched term's IDF over files and which candidates hold it (one
 * statement for all terms). With `bodies`, a file holds a word its
 * declarations' bodies use too, and a word is as common as the more of the
 * two counts says: a code file's document holds its declarations' headers
 * and docs only, so `t_set.c` held none of "set intersection and union"
 * but `set`, while `server.h`, whose comments name everything, held all.
 */
async function rarities(q: Queryable, projectIds: readonly string[], terms: readonly string[], candidates: readonly string[], bodies: boolean): Promise<Rarity[]> {
  const read = terms.slice(0, MAX_RARITY_TERMS);
  const matches = read.map((t) => ftsAnyOf([t]));
  const [{ n, terms: postings }, declared] = await Promise.all([
    filePostings(q, projectIds, matches, candidates),
    bodies ? declaredFilePostings(q, projectIds, matches, candidates) : Promise.resolve([]),
  ]);
  return read.map((term, i) => {
    const own = postings[i]!;
    const body = declared[i] ?? { df: 0, held: new Set<string>() };
    const df = Math.max(own.df, body.df);
    return { term, idf: df > 0 ? Math.log(1 + (n - df + 0.5) / (df + 0.5)) : 0, holders: new Set([...own.held, ...body.held]) };
  });
}

/** The share of the terms' summed IDF whose terms a word set holds (stems compared without a plural `s`). */
function nameShare(words: ReadonlySet<string>, rarity: readonly Rarity[]): number {
  // Names are few words: a word common in file texts is still telling in a file's name, so every term counts 1 beyond its IDF.
  const total = rarity.reduce((s, r) => s + 1 + r.idf, 0) || 1;
  return rarity.reduce((s, r) => s + (words.has(stemOf(r.term)) ? 1 + r.idf : 0), 0) / total;
}

/**
 * How well a file's name says the question: the share of the question's
 * rarity its words hold, times the share of its own words the question
 * holds (`SyslogHandler` says "syslog handler" better than
 * `AbstractSyslogHandler` does).
 */
function stemShare(words: ReturnType<typeof pathWords>, rarity: readonly Rarity[]): number {
  const held = nameShare(words.stem, rarity);
  if (held === 0) return 0;
  // One-letter parts (the `t` of `t_set.c`) say nothing either way.
  const parts = [...words.stem].filter((w) => w !== words.wholeStem && w.length > 1);
  const own = parts.length === 0 ? 1 : parts.filter((p) => rarity.some((r) => stemOf(r.term) === p)).length / parts.length;
  return held * (0.5 + 0.5 * own);
}

/** The weights a question is ranked at when the caller names none: a task's, or a question's. */
const weightsFor = (query: string): FileRankWeights => (isTask(query) ? TASK_RANK_WEIGHTS : FILE_RANK_WEIGHTS);

/** What {@link evidence} reads for a question. */
export type FileEvidence = Awaited<ReturnType<typeof evidence>>;

/**
 * Starts reading the evidence {@link rankFiles} reads for `query` at the
 * weights it would pick, for a caller that ranks files after other work
 * (code_context_pack ranks declarations first): on query threads the
 * searches run while that work's small reads leave a thread idle. Pass the
 * promise to `rankFiles` as `early`; a failure is that call's to report.
 */
export function readFileEvidence(q: Queryable, projectIds: readonly string[], query: string): Promise<FileEvidence> {
  const early = evidence(q, projectIds, query, weightsFor(query));
  early.catch(() => undefined);
  return early;
}

/** The evidence read from the store for a question: lexical hits, declarations of asked names, files named by path. */
async function evidence(q: Queryable, projectIds: readonly string[], query: string, w: FileRankWeights) {
  const terms = searchTerms(query, w);
  const names = askedNames(query, w.proseNames > 0);
  const leading = w.proseNames > 0 ? leadingName(query) : undefined;
  const sought = leading && !names.includes(leading) ? [...names, leading] : names;
  const match = ftsAnyOf(terms);
  const [fileHits, declHits, named] = await Promise.all([
    terms.length > 0 ? searchFiles(q, projectIds, match, FILE_POOL) : Promise.resolve([]),
    terms.length > 0 ? searchSymbols(q, projectIds, match, DECLARATION_POOL) : Promise.resolve([]),
    sought.length > 0 ? declarationsNamed(q, projectIds, spellings(sought)) : Promise.resolve([]),
  ]);
  // The first word is a name only where a declaration is spelled exactly so.
  const asked = sought.length > names.length && !named.some((d) => d.name === leading) ? names : sought;
  return { terms, asked, text: scaled(new Map(fileHits.map((h) => [h.fileId, h.score]))), decl: saturated(declHits), defines: definitions(named, asked) };
}

/**
 * Files ranked for a code question (see {@link FileRankWeights}); `extra`
 * is the caller's own evidence per file (0..1), `exclude` files never
 * listed (seeds). A task (see {@link isTask}) is weighed by
 * {@link TASK_RANK_WEIGHTS} unless `w` is given. `early` is the evidence
 * {@link readFileEvidence} started for this query (used only at the
 * weights the query picks, which that read assumed).
 */
export async function rankFiles(
  q: Queryable,
  projectIds: readonly string[],
  query: string,
  extra: ReadonlyMap<string, number> = new Map(),
  weights?: FileRankWeights,
  exclude: ReadonlySet<string> = new Set(),
  early?: Promise<FileEvidence>,
): Promise<RankedCodeFile[]> {
  const w = weights ?? weightsFor(query);
  const scored = await scoredFiles(q, projectIds, query, extra, w, exclude, weights ? undefined : early);
  const title = w.title > 0 ? taskTitle(query) : undefined;
  const withTitle = title === undefined ? scored : addTitle(scored, await titleScores(q, projectIds, title, scored, exclude), w.title);
  return withTitle.filter((f) => f.score > 0).sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, MAX_FILES);
}

/** Every candidate file of a question with its score (unsorted, unfiltered). */
async function scoredFiles(
  q: Queryable,
  projectIds: readonly string[],
  query: string,
  extra: ReadonlyMap<string, number>,
  w: FileRankWeights,
  exclude: ReadonlySet<string>,
  early?: Promise<FileEvidence>,
): Promise<RankedCodeFile[]> {
  const { terms, asked, text, decl, defines } = await (early ?? evidence(q, projectIds, query, w));
  if (terms.length === 0 && asked.length === 0) return [];
  const candidates = [...new Set([...text.keys(), ...decl.keys(), ...defines.keys(), ...extra.keys()])].filter((f) => !exclude.has(f));
  const [paths, rarity] = await Promise.all([pathsOfFiles(q, candidates), rarities(q, projectIds, terms, candidates, w.bodies > 0)]);
  const total = rarity.reduce((s, r) => s + r.idf, 0) || 1;
  const askedWhole = new Set(asked.map((a) => singular(normal(a))));
  const runs = w.compounds > 0 ? compounds(query) : new Set<string>();
  const definesWeight = w.defines * (isSymbolQuery(query) ? w.symbolQuery : 1);
  const out: RankedCodeFile[] = [];
  for (const fileId of candidates) {
    const path = paths.get(fileId);
    if (path === undefined) continue;
    const words = pathWords(path);
    const stem = askedWhole.has(words.stemWhole) ? 1 : Math.max(runs.has(words.run) ? w.compounds : 0, stemShare(words, rarity));
    const coverage = rarity.length === 0 ? 1 : rarity.reduce((s, r) => s + (r.holders.has(fileId) || words.stem.has(stemOf(r.term)) ? r.idf : 0), 0) / total;
    const lexical =
      w.text * (text.get(fileId) ?? 0) + w.declarations * (decl.get(fileId) ?? 0) + w.stem * stem + w.folder * nameShare(words.folders, rarity) +
      definesWeight * (defines.get(fileId) ?? 0);
    // The caller's evidence (the graph) is no match of the question's words: coverage does not scale it.
    out.push({ fileId, path, score: (lexical * coverage ** w.rarity + w.extra * (extra.get(fileId) ?? 0)) * pathPrior(path, w) });
  }
  return out;
}

/** Source folders a project's package sits in (`src/flask`, `lib/foo`): skipped to reach the package's own name. */
const SOURCE_ROOTS = new Set(["src", "lib", "source", "python", "packages"]);

/**
 * The project's own name as its files spell it: the top folder (under a
 * source root such as `src/`) holding the most of the given files outside
 * tests, leading underscores dropped (`src/_pytest` → `pytest`,
 * `sphinx/` → `sphinx`). Read from the task's own candidate files, so it
 * needs no read of its own; undefined when no folder holds a third of them.
 */
export function projectName(paths: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  let n = 0;
  for (const path of paths) {
    if (isTestPath(path)) continue;
    const parts = path.split("/");
    const i = parts.length > 2 && SOURCE_ROOTS.has(parts[0]!) ? 1 : 0;
    if (parts.length - i < 2) continue;
    const top = normal(parts[i]!.replace(/^_+/, ""));
    n++;
    if (top) counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  const [name, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  return count * 3 >= n && n > 0 ? name : undefined;
}

/**
 * A task's title without the project's own name: the name says which
 * project the issue is filed against (`Sphinx 3.2 complains …`, `Flask
 * routes …`, `SymPy …`), not which of its code, and a short question reads
 * a capitalised word as a name asked for (`class Sphinx`, `class Flask`).
 */
export function withoutProjectName(title: string, name: string | undefined): string {
  if (name === undefined) return title;
  return title.split(/\s+/).filter((word) => normal(word.replace(/^_+/, "").replace(/['’]s\W*$/, "")) !== name).join(" ");
}

/**
 * A task's title ranked as the short question it is (`Sum of the elements
 * of an identity matrix is zero`, `vectors break pretty printing`): its
 * words name the code in prose, while the body under it is mostly pasted
 * code and output. Empty when the title, once the project's own name is
 * dropped, holds under two words. The scores are the short question's own,
 * not scaled to its best file: a title that names a file, a declaration or
 * rare words brings strong evidence (`pretty printing` names
 * `printing/pretty/pretty.py`), a vague one weak evidence spread over many
 * files (`routes to return domain/sub-domains information`), and scaling
 * gave both the same weight (docs/benchmarks.md, eleventh pass).
 */
async function titleScores(q: Queryable, projectIds: readonly string[], title: string, scored: readonly RankedCodeFile[], exclude: ReadonlySet<string>): Promise<Map<string, RankedCodeFile>> {
  const own = withoutProjectName(title, projectName(scored.map((f) => f.path)));
  if (own.split(/\s+/).filter(Boolean).length < 2) return new Map();
  const ranked = await rankFiles(q, projectIds, own, new Map(), FILE_RANK_WEIGHTS, exclude);
  return new Map(ranked.map((f) => [f.fileId, f]));
}

/** The title's scores added at weight `weight` to a task's scores; files only the title ranks join the list. */
function addTitle(scored: readonly RankedCodeFile[], title: ReadonlyMap<string, RankedCodeFile>, weight: number): RankedCodeFile[] {
  const out = new Map(scored.map((f) => [f.fileId, { ...f }]));
  for (const [fileId, f] of title) {
    const had = out.get(fileId);
    if (had) had.score += weight * f.score;
    else out.set(fileId, { ...f, score: weight * f.score });
  }
  return [...out.values()];
}
