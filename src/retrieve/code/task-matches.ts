import { ftsAnyOf } from "../query-terms.js";
import type { Queryable } from "../../store/db.js";
import { filesByKeys, filesInFolders } from "../../store/code/code-graph-reads.js";
import { declarationCountsByName, declarationMembers, declarationsByIds, declarationsNamed } from "../../store/code/declaration-reads.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";
import { searchFiles } from "../../store/search/lexical-search.js";
import { searchSymbols } from "../../store/search/symbol-search.js";
import { declarationsEndingWith } from "../../store/search/declaration-search.js";
import type { SymbolFieldWeights } from "../../store/search/symbol-search.js";
import type { Frame, TaskTerms } from "./task-terms.js";
import { declarationIdsOfFiles } from "../../store/code/code-pack-reads.js";
import { bodyUses } from "./body-uses.js";

/** Where a task's words, names and paths land, each signal scaled to 0..1. */
export interface TaskMatches {
  /** BM25 over each declaration's names, header, doc, path and own text: the sum of its terms' parts. */
  lexical: Map<string, number>;
  /** Each declaration's lexical score split by the task term that earned it (same scale as `lexical`). */
  termsOf: Map<string, Map<string, number>>;
  /** Declarations the task names exactly; rarer names count more. */
  named: Map<string, number>;
  /** Files the task names by path or module. */
  files: Map<string, number>;
  /** BM25 over whole files (their declarations' names, headers and docs together). */
  fileText: Map<string, number>;
  declarations: Map<string, DeclarationBrief>;
}

/** Lexical candidates read per task term: wide enough for recall, bounded for latency. */
const TERM_POOL = 120;
/** Task terms searched one by one (the most telling first); the rest add little. */
const MAX_TERM_QUERIES = 32;
const FILE_POOL = 100;
/** A name declared more often than this says little about which one is meant. */
const MAX_NAMED = 12;

function scaled(scores: ReadonlyMap<string, number>): Map<string, number> {
  const top = Math.max(0, ...scores.values());
  return new Map([...scores].map(([k, v]) => [k, top > 0 ? v / top : 0]));
}

async function namedDeclarations(q: Queryable, projectIds: readonly string[], identifiers: readonly string[]) {
  const counts = await declarationCountsByName(q, projectIds, identifiers);
  const specific = [...counts].filter(([, n]) => n <= MAX_NAMED).map(([name]) => name);
  const rows = await declarationsNamed(q, projectIds, specific);
  return rows.map((d) => ({ brief: d, score: 1 / Math.sqrt(counts.get(d.name) ?? 1) }));
}

/** Most declarations one suffix may reach: past this it names a habit, not a place. */
const MAX_DISPATCH = 24;

/**
 * Declarations named `<prefix>_<name>` for a name the task writes: methods
 * that dispatch on a class or attribute name (`_print_Integral`,
 * `visit_Call`, `_eval_is_zero`), where the fix for a named class often
 * lies. Scored as exact names are (rarer counts more), times `weight`.
 */
async function dispatchDeclarations(q: Queryable, projectIds: readonly string[], suffixes: readonly string[], weight: number) {
  if (weight <= 0 || suffixes.length === 0) return [];
  const rows = await declarationsEndingWith(q, projectIds, suffixes);
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.suffix, (count.get(r.suffix) ?? 0) + 1);
  const kept = rows.filter((r) => (count.get(r.suffix) ?? 0) <= MAX_DISPATCH);
  const briefs = new Map((await declarationsByIds(q, projectIds, kept.map((r) => r.symbolId))).map((d) => [d.symbolId, d]));
  return kept.flatMap((r) => {
    const brief = briefs.get(r.symbolId);
    return brief ? [{ brief, score: weight / Math.sqrt(count.get(r.suffix) ?? 1) }] : [];
  });
}

/** Named classes whose constructor a task may enter: the rarest names it writes. */
const MAX_CLASSES = 6;
/** Members read per such class, enough to reach its constructor. */
const MAX_MEMBERS = 80;
/** What a constructor is called in the languages parsed (`__init__`, `__new__`, `constructor`, `init`, `new`). */
const CONSTRUCTOR = /^(__init__|__new__|constructor|init|new)$/;

/**
 * The constructors of the classes a task names exactly and writes as a call
 * (`Blueprint(…)` in a reproduction): the call enters the class there, so
 * the constructor counts as named at `weight` of the class's score. A class
 * only mentioned brings nothing.
 */
async function constructorDeclarations(q: Queryable, named: ReadonlyArray<{ brief: DeclarationBrief; score: number }>, called: ReadonlySet<string>, weight: number) {
  if (weight <= 0) return [];
  const classes = named.filter((n) => n.brief.kind === "class" && called.has(n.brief.name)).sort((a, b) => b.score - a.score).slice(0, MAX_CLASSES);
  const out: Array<{ brief: DeclarationBrief; score: number }> = [];
  for (const c of classes) {
    for (const d of await declarationMembers(q, c.brief, MAX_MEMBERS)) {
      if (d.kind === "constructor" || CONSTRUCTOR.test(d.name)) out.push({ brief: d, score: weight * c.score });
    }
  }
  return out;
}

/** True when a qualified name is the frame's function (of the frame's class, when the frame names one). */
function framed(qualifiedName: string, frame: Frame): boolean {
  const parts = qualifiedName.split(".");
  return parts.at(-1) === frame.name && (frame.owner === undefined || parts.at(-2) === frame.owner);
}

/**
 * The functions a pasted traceback's frames name, in the files those frames
 * lie in: a frame is a place the failing run passed through, so its
 * function in its file is named beyond doubt (unlike a bare name, however
 * common: `_setup`, `__new__`). Frames outside the project (the standard
 * library, other packages) resolve to no file and are skipped. The
 * innermost project frame scores `weight`, each one further out `decay`
 * times the one inside it.
 */
async function frameDeclarations(q: Queryable, projectIds: readonly string[], frames: readonly Frame[], weight: number, decay: number) {
  if (weight <= 0 || frames.length === 0) return [];
  const tails = frames.map((f) => pathTails(f.path));
  const keyed = await filesByKeys(q, projectIds, [...new Set(tails.flat())]);
  const filesOfKey = new Map<string, Set<string>>();
  for (const f of keyed) filesOfKey.set(f.key, (filesOfKey.get(f.key) ?? new Set()).add(f.fileId));
  const placed = frames.flatMap((f, i) => {
    const hit = [...(filesOfKey.get(tails[i]!.find((t) => filesOfKey.has(t)) ?? "") ?? [])];
    return hit.length === 1 ? [{ fileId: hit[0]!, frame: f }] : [];
  });
  const ids = await declarationIdsOfFiles(q, [...new Set(placed.map((p) => p.fileId))]);
  const scoreOf = new Map<string, number>();
  placed.reverse().forEach((p, depth) => {
    for (const d of ids) {
      if (d.fileId === p.fileId && framed(d.qualifiedName, p.frame) && !scoreOf.has(d.symbolId)) scoreOf.set(d.symbolId, weight * decay ** depth);
    }
  });
  const briefs = await declarationsByIds(q, projectIds, [...scoreOf.keys()]);
  return briefs.map((brief) => ({ brief, score: scoreOf.get(brief.symbolId) ?? 0 }));
}

/** Every tail of a path, longest first, with and without its extension. */
function pathTails(path: string): string[] {
  const segments = path.split("/").filter(Boolean);
  const tails = segments.map((_, i) => segments.slice(i).join("/"));
  return tails.flatMap((t) => [t, t.replace(/\.[a-z]+$/, "")]).filter((t, i, all) => t && all.indexOf(t) === i);
}

/** A file that stands for its folder: the package a module path names (`sphinx.ext.napoleon` → `napoleon/__init__.py`). */
const PACKAGE_INDEX = /(^|\/)(__init__\.pyi?|index\.[cm]?[jt]sx?|mod\.rs)$/;

/**
 * The modules of the packages a task names: where a module path lands on a
 * package's index file (`sphinx.ext.napoleon` on `napoleon/__init__.py`),
 * the task names the package, and its code lives in the modules beside the
 * index as often as in it. Each module gets `weight` shared among the
 * package's modules; the index keeps its own share.
 */
async function packageModules(q: Queryable, projectIds: readonly string[], indexPaths: readonly string[], weight: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (weight <= 0 || indexPaths.length === 0) return out;
  const folders = [...new Set(indexPaths.map((p) => p.slice(0, Math.max(0, p.lastIndexOf("/")))))].filter(Boolean);
  const byFolder = new Map<string, string[]>();
  for (const f of await filesInFolders(q, projectIds, folders)) if (!PACKAGE_INDEX.test(f.path)) byFolder.set(f.key, [...(byFolder.get(f.key) ?? []), f.fileId]);
  for (const files of byFolder.values()) for (const f of files) out.set(f, Math.max(out.get(f) ?? 0, weight / files.length));
  return out;
}

/**
 * Files the task's paths name: each mention goes to the files of its
 * longest matching tail; with `packages`, a mention landing on a package's
 * index names the package's modules too (see {@link packageModules}).
 */
async function namedFiles(q: Queryable, projectIds: readonly string[], paths: readonly string[], whole: readonly string[] = [], packages = 0): Promise<Map<string, number>> {
  const tailsOf = new Map<string, string[]>([...paths.map((p): [string, string[]] => [p, pathTails(p)]), ...whole.filter((p) => !paths.includes(p)).map((p): [string, string[]] => [p, [p]])]);
  const keyed = await filesByKeys(q, projectIds, [...new Set([...tailsOf.values()].flat())]);
  const filesOfKey = new Map<string, string[]>();
  for (const f of keyed) filesOfKey.set(f.key, [...(filesOfKey.get(f.key) ?? []), f.fileId]);
  const pathOf = new Map(keyed.map((f) => [f.fileId, f.path]));
  const out = new Map<string, number>();
  const indexes: string[] = [];
  for (const [mention, tails] of tailsOf) {
    const best = tails.find((t) => filesOfKey.has(t));
    const files = best ? (filesOfKey.get(best) ?? []) : [];
    for (const f of files) out.set(f, Math.max(out.get(f) ?? 0, 1 / files.length));
    // Only a module path (dotted, read as `a/b/c`), not a file name, names a package.
    if (files.length === 1 && !/\.\w+$/.test(mention) && PACKAGE_INDEX.test(pathOf.get(files[0]!) ?? "")) indexes.push(pathOf.get(files[0]!)!);
  }
  for (const [f, v] of await packageModules(q, projectIds, indexes, packages)) out.set(f, Math.max(out.get(f) ?? 0, v));
  return out;
}

/**
 * BM25 of each task term alone, so that a declaration's score is known term
 * by term (the ranking spreads a pack over the terms). Each term's BM25
 * carries its own IDF; the task's stress on a term (a word of a name it
 * writes as code) scales it by up to 2. The terms' searches are asked for
 * together: on query threads two run at once (a 4 M-line store's common
 * words take about 10 ms each).
 */
async function termHits(q: Queryable, projectIds: readonly string[], terms: TaskTerms, weights?: SymbolFieldWeights) {
  const searched = terms.terms.slice(0, MAX_TERM_QUERIES);
  const termsOf = new Map<string, Map<string, number>>();
  const lexical = new Map<string, number>();
  // Searched at once (on query threads, side by side), then taken in the terms' order.
  const found = await Promise.all(searched.map((term) => searchSymbols(q, projectIds, ftsAnyOf([term]), TERM_POOL, weights)));
  for (const [i, term] of searched.entries()) {
    const stress = Math.min(2, 1 + Math.log2(terms.weights.get(term) ?? 1) / 3);
    for (const h of found[i]!) {
      const s = h.score * stress;
      const own = termsOf.get(h.symbolId) ?? new Map<string, number>();
      own.set(term, s);
      termsOf.set(h.symbolId, own);
      lexical.set(h.symbolId, (lexical.get(h.symbolId) ?? 0) + s);
    }
  }
  const top = Math.max(0, ...lexical.values());
  if (top > 0) {
    for (const [id, v] of lexical) lexical.set(id, v / top);
    for (const own of termsOf.values()) for (const [t, v] of own) own.set(t, v / top);
  }
  return { lexical, termsOf };
}

/**
 * Reads the lexical, name and path evidence of a task, and what bodies use
 * (`uses` weighs the declarations whose bodies use a name the task writes
 * as code; their worth joins the lexical one under that name's term).
 * `dispatch` and `constructors` weigh the methods named for a name the
 * task writes and the constructors of classes it writes as calls;
 * `packages` the modules of a package the task names by module path.
 */
export async function taskMatches(q: Queryable, projectIds: readonly string[], terms: TaskTerms, weights?: SymbolFieldWeights, uses = 0, dispatch = 0, constructors = 0, frames: { weight: number; decay: number } = { weight: 0, decay: 1 }, packages = 0): Promise<TaskMatches> {
  const match = ftsAnyOf(terms.terms);
  const [hits, fileHits, named, files, used] = await Promise.all([
    termHits(q, projectIds, terms, weights),
    terms.terms.length > 0 ? searchFiles(q, projectIds, match, FILE_POOL) : Promise.resolve([]),
    namedDeclarations(q, projectIds, terms.identifiers).then(async (exact) => [
      ...exact,
      ...(await dispatchDeclarations(q, projectIds, terms.suffixes, dispatch)),
      ...(await constructorDeclarations(q, exact, new Set(terms.called), constructors)),
      ...(await frameDeclarations(q, projectIds, terms.frames, frames.weight, frames.decay)),
    ]),
    namedFiles(q, projectIds, terms.paths, terms.optionPaths, packages),
    uses > 0 ? bodyUses(q, projectIds, terms.identifiers) : Promise.resolve(undefined),
  ]);
  for (const [id, own] of used?.termsOf ?? []) {
    const mine = hits.termsOf.get(id) ?? new Map<string, number>();
    for (const [t, v] of own) {
      mine.set(t, (mine.get(t) ?? 0) + uses * v);
      hits.lexical.set(id, (hits.lexical.get(id) ?? 0) + uses * v);
    }
    hits.termsOf.set(id, mine);
  }
  const declarations = new Map(named.map((n) => [n.brief.symbolId, n.brief]));
  for (const [id, d] of used?.declarations ?? []) declarations.set(id, d);
  for (const d of await declarationsByIds(q, projectIds, [...hits.lexical.keys()].filter((id) => !declarations.has(id)))) {
    declarations.set(d.symbolId, d);
  }
  return {
    lexical: hits.lexical,
    termsOf: hits.termsOf,
    named: named.reduce((m, n) => m.set(n.brief.symbolId, Math.max(m.get(n.brief.symbolId) ?? 0, n.score)), new Map<string, number>()),
    files,
    fileText: scaled(new Map(fileHits.map((f) => [f.fileId, f.score]))),
    declarations,
  };
}
