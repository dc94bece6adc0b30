import type { Queryable } from "../../store/db.js";
import { declarationDetailsByIds, declarationMembers } from "../../store/code/declaration-reads.js";
import type { DeclarationDetail } from "../../store/code/declaration-reads.js";
import { declarationCount, declarationPostings, declarationTexts, inNames, searchDeclarations } from "../../store/search/declaration-search.js";
import type { DeclarationHit } from "../../store/search/declaration-search.js";
import { diversify } from "../code/diversify.js";
import { isPeripheralPath, isTestPath } from "../code/test-paths.js";
import { ftsAllOf, ftsAnyOf } from "../query-terms.js";

/**
 * A declaration row of a memory answer: what an agent needs to cite and
 * open it (file id, project path, line span) and to tell it from another of
 * the same name (kind, container), its header, the first sentence of its
 * doc comment, and for a type-like declaration its members' headers.
 */
export interface AnswerDeclaration {
  symbolId: string;
  /** Qualified name, container included (`SmartRouter.match`). */
  name: string;
  kind: string;
  /** The enclosing declaration's qualified name; absent at top level. */
  container?: string;
  signature: string;
  doc?: string;
  fileId: string;
  filepath: string;
  lineStart: number;
  lineEnd: number;
  /** Headers of the members directly inside a class, interface, object type, enum, struct or trait, in line order. */
  members?: string[];
  /** The declaration's cell (dropped from the row: used to leave that cell out of `cells`). */
  cellId?: string | null;
}

/** Declarations scored at most (the any-term query's pool, and each covering query's), and listed at most. */
const POOL = 300;
const COVERING_POOL = 50;
/** Questions of at most this many terms also look for declarations holding all terms but one (one query per term left out). */
const MAX_SUBSET_TERMS = 6;
const MAX_ROWS = 30;
/** The default budget, at which {@link MAX_ROWS} was measured. */
const MEASURED_BUDGET = 4096;

/**
 * Declarations listed at most at a budget: {@link MAX_ROWS} up to the
 * default budget, growing with it beyond (a caller giving twice the room
 * may get twice the rows, while they pass the relevance cut).
 */
export function maxRowsAt(budget: number): number {
  return Math.round(MAX_ROWS * Math.max(1, budget / MEASURED_BUDGET));
}
/** A row is kept while its score is at least this share of the best (a quarter in the first hono run; a tenth chosen on the kysely tuning set). */
const CUT = 0.1;
const MAX_MEMBERS = 24;
const MAX_HEADER = 200;
const MAX_DOC = 200;
/**
 * Score factors: each earlier row that matched the same set of terms (on
 * the share of its score its terms leave uncovered, see pickDiverse); a
 * test or peripheral path.
 */
const SAME_TERMS = 0.6;
const ASIDE = 0.5;
/**
 * A property counts half: its header is one of the member lines its type's
 * row lists, and it holds no behaviour, while thousands of them (a third to
 * half of a TypeScript project's declarations) are short rows BM25 favours.
 * Chosen on the kysely tuning set, where properties matching one word
 * (`MigratorProps.allowUnorderedMigrations`, `ColumnMetadata.dataType`) sat
 * above the methods asked for ("How are migrations that have not run yet
 * found?", "How are migration files loaded from a folder?", "How does the
 * migrator make sure migrations run in order?").
 */
const PROPERTY = 0.5;
/**
 * How much a declaration whose own name holds the question's words gains:
 * its score is multiplied by 1 + NAMED × the share of the question's IDF its
 * name column matches. FTS5's BM25 normalizes by the whole row's length, so
 * a long body hides a name that says exactly what is asked
 * (`parseStringReference` for "How is a column reference like table.column
 * parsed?", `ConnectionMutex.obtainLock`, `SqliteIntrospector.getTables`,
 * `DefaultQueryCompiler.visitSelectQuery` on the kysely tuning set).
 */
const NAMED = 2;

const TYPE_LIKE = new Set(["class", "interface", "type", "enum", "struct", "trait", "namespace", "module"]);

/** A term's inverse document frequency over the indexed declarations (BM25's form, never negative). */
const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * Declarations answering a question, ranked by BM25 over the declaration
 * index (names and qualified names split as identifiers, header, doc
 * comment, path and body), times how much of the question's rarity they
 * cover: the share of the question's summed term IDF that the declaration
 * matches. A word naming hundreds of declarations (`router`) is cheap, so
 * matching it alone covers little, and a declaration matching the rarer
 * words too ranks above the many that share the common one. A declaration
 * whose name holds the question's words gains (NAMED); tests and
 * peripheral folders (examples, benchmarks, scripts) count half, as in
 * code_context_pack, and so do properties (PROPERTY). Rows are then picked
 * greedily with diversity: each earlier pick that matched exactly the same
 * terms lowers the part of a candidate's score those terms leave
 * uncovered, so one word cannot fill the list. The list stops where scores
 * fall below a tenth of the best.
 */
export async function rankDeclarations(
  q: Queryable,
  projectIds: readonly string[],
  terms: readonly string[],
  fileIds: readonly string[] | undefined,
  maxRows = MAX_ROWS,
): Promise<AnswerDeclaration[]> {
  if (terms.length === 0) return [];
  const hits = await candidates(q, projectIds, terms, fileIds);
  if (hits.length === 0) return [];
  const ids = hits.map((h) => h.symbolId);
  const matches = terms.map((t) => ftsAnyOf([t]));
  const [n, postings] = await Promise.all([declarationCount(q), declarationPostings(q, [...matches, ...matches.map(inNames)], hits.map((h) => h.rowid))]);
  const weights = terms.map((term, i) => {
    const { df, held } = postings[i]!;
    return { term, df, has: held, named: postings[terms.length + i]!.held, idf: df > 0 ? idf(n, df) : 0 };
  });
  const total = weights.reduce((s, w) => s + w.idf, 0) || 1;
  const rows = new Map((await declarationDetailsByIds(q, projectIds, ids)).map((r) => [r.symbolId, r]));
  const top = Math.max(...hits.map((h) => h.score), 1e-9);
  const scored = hits.flatMap((h) => {
    const row = rows.get(h.symbolId);
    if (!row) return [];
    const hit = weights.filter((w) => w.has.has(h.rowid));
    const coverage = hit.reduce((s, w) => s + w.idf, 0) / total;
    const naming = weights.filter((w) => w.named.has(h.rowid)).reduce((s, w) => s + w.idf, 0) / total;
    const aside = (isTestPath(row.path) || isPeripheralPath(row.path) ? ASIDE : 1) * (row.kind === "property" ? PROPERTY : 1);
    const score = (h.score / top) * coverage * (1 + NAMED * naming) * aside;
    return [{ row, score, coverage, terms: hit.map((w) => w.term).join(" ") }];
  });
  const picked = pickDiverse(scored, maxRows);
  return Promise.all(picked.map((r) => answerRow(q, projectIds, r)));
}

/**
 * The declarations scored: the best of BM25 over any of the terms, and the
 * best holding all of them or all but one (BM25 over any term favours short
 * declarations, so a long body holding every word of the question can sit
 * below hundreds of short ones holding one common word). A declaration
 * found only by a covering query keeps that query's BM25: the sum over the
 * terms it holds, as the any-term BM25 sums them, less any left-out term it
 * may hold too (scoring it again with the any-term expression restricted to
 * its row runs the whole expression once per row: 100 rows cost 100 ms on a
 * 100k-line corpus).
 */
async function candidates(q: Queryable, projectIds: readonly string[], terms: readonly string[], fileIds: readonly string[] | undefined): Promise<DeclarationHit[]> {
  const any = ftsAnyOf(terms);
  const subsets = terms.length < 2 ? [] : [terms, ...(terms.length <= MAX_SUBSET_TERMS ? terms.map((_, i) => terms.filter((_, j) => j !== i)) : [])];
  const lists = await Promise.all([
    searchDeclarations(q, projectIds, any, POOL, fileIds),
    ...subsets.filter((s) => s.length >= 2).map((s) => searchDeclarations(q, projectIds, ftsAllOf(s), COVERING_POOL, fileIds)),
  ]);
  const known = new Set(lists[0]!.map((h) => h.symbolId));
  const extra = new Map<string, DeclarationHit>();
  for (const h of lists.slice(1).flat()) {
    if (!known.has(h.symbolId) && (extra.get(h.symbolId)?.score ?? -Infinity) < h.score) extra.set(h.symbolId, h);
  }
  return [...lists[0]!, ...extra.values()];
}

/**
 * Greedy picks by the one diversification of the code pack: for each
 * earlier pick that matched the same set of question terms, the part of a
 * row's score its terms leave uncovered (1 − coverage) falls by SAME_TERMS.
 * So a crowd of rows matching one word of the question yields to other
 * words after a few picks, while rows matching most of the question keep
 * their worth: those are the declarations of the file that answers, which
 * often holds the answer beside its siblings (on the kysely tuning set,
 * `maybeJson` among the JSON results plugin's functions, `parseStringReference`
 * beside `parseStringReferenceWithTable`, `ConnectionMutex.obtainLock`
 * after `releaseLock`). Rows of one file are not decayed for sharing it
 * (the code pack's file decay, 0.8 a pick, compounded with the term decay
 * and pushed those answers past the relevance cut there). Picked worths
 * only fall, so the relevance cut keeps a prefix.
 */
function pickDiverse(scored: Array<{ row: DeclarationDetail; score: number; coverage: number; terms: string }>, maxRows: number): DeclarationDetail[] {
  const candidates = scored
    .filter((c) => c.score > 0)
    .map((c) => ({ item: c.row, file: c.row.fileId, score: c.score, terms: new Map([[c.terms, c.score * (1 - c.coverage)]]) }));
  const picked = diversify(candidates, { term: SAME_TERMS, file: 1, whole: 0 }, maxRows);
  const best = picked[0]?.worth ?? 0;
  const kept = picked.findIndex((p) => p.worth < CUT * best);
  return (kept < 0 ? picked : picked.slice(0, kept)).map((p) => p.item);
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** The first sentence (or line) of a doc comment. */
function firstSentence(doc: string | null): string | undefined {
  const text = doc?.trim();
  if (!text) return undefined;
  const line = text.split(/\n\s*\n/)[0]!.replace(/\s+/g, " ");
  const end = line.search(/[.!?](\s|$)/);
  return clip(end >= 0 ? line.slice(0, end + 1) : line, MAX_DOC);
}

async function answerRow(q: Queryable, projectIds: readonly string[], d: DeclarationDetail): Promise<AnswerDeclaration> {
  const dot = d.qualifiedName.lastIndexOf(".");
  const doc = firstSentence(d.doc);
  const members = TYPE_LIKE.has(d.kind) ? await membersOf(q, projectIds, d) : [];
  return {
    symbolId: d.symbolId,
    name: d.qualifiedName,
    kind: d.kind,
    ...(d.depth > 0 && dot > 0 ? { container: d.qualifiedName.slice(0, dot) } : {}),
    signature: clip(d.signature, MAX_HEADER),
    ...(doc ? { doc } : {}),
    fileId: d.fileId,
    filepath: d.path,
    lineStart: d.lineStart,
    lineEnd: d.lineEnd,
    ...(members.length > 0 ? { members } : {}),
    cellId: d.cellId,
  };
}

/**
 * A type-like declaration's members: the declarations read inside it, or,
 * for an object type whose members are no declarations of their own
 * (`type Options = { origin?: string; … }`), the member lines of its text.
 */
async function membersOf(q: Queryable, projectIds: readonly string[], d: DeclarationDetail): Promise<string[]> {
  const inside = await declarationMembers(q, d, MAX_MEMBERS);
  if (inside.length > 0) return inside.map((m) => clip(m.signature, MAX_HEADER / 2));
  const text = (await declarationTexts(q, projectIds, [d.symbolId])).get(d.symbolId);
  return text ? objectMembers(text).slice(0, MAX_MEMBERS).map((m) => clip(m, MAX_HEADER / 2)) : [];
}

/** True when every parenthesis and bracket opened in the text is closed in it. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
  }
  return depth === 0;
}

const MEMBER_START = /^\s*(?:readonly\s+)?(?:[A-Za-z_$#][\w$]*|'[^']*'|"[^"]*"|\[[^\]]+\])\??\s*[:(<]/;

/**
 * The member lines of the declaration's own braced body (the first brace,
 * when no bracket or parenthesis is open before it): each
 * line that starts a member (`name:`, `name?:`, `name(`) at the body's own
 * nesting level, whitespace collapsed. Strings and comments are not
 * parsed: a brace inside one can end the walk early, which loses members,
 * never invents one.
 */
export function objectMembers(text: string): string[] {
  const open = text.indexOf("{");
  if (open < 0 || !balanced(text.slice(0, open))) return [];
  const out: string[] = [];
  let depth = 1;
  let lineStart = open + 1;
  for (let i = open + 1; i < text.length && depth > 0; i++) {
    const ch = text[i]!;
    if (ch === "{" || ch === "(" || ch === "[") depth++;
    else if (ch === "}" || ch === ")" || ch === "]") depth--;
    if (ch === "\n" || depth === 0) {
      lineStart = i + 1;
      continue;
    }
    if (depth === 1 && i === lineStart) {
      const end = text.indexOf("\n", i);
      const line = text.slice(i, end < 0 ? text.length : end);
      if (MEMBER_START.test(line)) out.push(line.trim().replace(/\s+/g, " ").replace(/[;,]$/, ""));
    }
  }
  return out;
}
