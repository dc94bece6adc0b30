/**
 * The prose of an answer's rows, cut into clauses of words, as the
 * extractive filler reads it. A field is answered by what a row *says*, so
 * a declaration cell (`function verifyKey — verifyKey(key, keyHash) — src/keys.ts — Checks …`)
 * offers only its doc sentence: the kind, name and header are identifier
 * words of code, and a field named `keyHash` must not be "answered" by a
 * parameter that happens to share its name, nor a `maxAge` field by a
 * `space: 2` initializer.
 */
import { stem } from "./field-terms.js";

/** A row of the answer, as the filler is given it. */
export interface EvidenceRow {
  cellId: string;
  text: string;
  /** The project path of the cell's file, when known: it marks where a declaration cell's header ends. */
  filepath?: string;
  /** The first line of the cell's span, when known: a heading row of the same file above it names its section. */
  lineStart?: number;
}

/** A row that reads as a heading: a few words with no sentence end (`Contacts`, `API keys`), not a declaration. */
export function isHeading(row: EvidenceRow): boolean {
  const t = row.text.trim();
  return t.length > 0 && t.length <= 60 && !/[.!?:;]$/.test(t) && !t.includes(" — ") && t.split(/\s+/).length <= 6;
}

/**
 * The heading of each row's section, among the rows given: the nearest
 * heading row of the same file that starts above it. (Only returned rows
 * are known, so a heading not returned leaves its rows with the one above.)
 */
export function sectionHeadings(rows: readonly EvidenceRow[]): Map<string, EvidenceRow> {
  const headings = rows.filter((r) => r.filepath !== undefined && r.lineStart !== undefined && isHeading(r));
  const out = new Map<string, EvidenceRow>();
  for (const r of rows) {
    if (r.filepath === undefined || r.lineStart === undefined || isHeading(r)) continue;
    let best: EvidenceRow | undefined;
    for (const h of headings) if (h.filepath === r.filepath && h.lineStart! < r.lineStart && (!best || h.lineStart! > best.lineStart!)) best = h;
    if (best) out.set(r.cellId, best);
  }
  return out;
}

/** One word of a clause: its text, offsets in the clause, lower case and stem. */
export interface Word {
  raw: string;
  lower: string;
  stem: string;
  /** The parts of a compound (`max-age`, `maxAge`, `Cross-Origin-Resource-Policy`) as stems; the word itself when it has one part. */
  parts: string[];
  start: number;
  end: number;
}

/** A clause of a row's prose: the unit a field is matched against and a value taken from. */
export interface Clause {
  cellId: string;
  /** Retrieval rank of the row (0 is first). */
  rank: number;
  /** The clause's index among its row's clauses; the first names the row's topic. */
  index: number;
  text: string;
  words: Word[];
}

/** A declaration cell's parts: `kind name`, its header (may be empty), and its doc sentence (may be empty). */
export interface DeclarationParts {
  title: string;
  header: string;
  doc: string;
}

/**
 * A declaration cell read apart (`kind name — [header —] path [— doc]`,
 * with the row's own file path as one part), or undefined for any other row.
 */
export function declarationParts(row: EvidenceRow): DeclarationParts | undefined {
  const parts = row.text.split(" — ");
  if (parts.length < 3 || !/^[a-z][a-z ]* \S+$/.test(parts[0]!)) return undefined;
  const at = row.filepath ? parts.indexOf(row.filepath) : parts.findIndex((p, i) => i > 0 && i <= 2 && /^[\w@.~-]+(?:\/[\w@.~-]+)*\.\w+$/.test(p));
  if (at < 1 || at > 2) return undefined;
  return { title: parts[0]!, header: at === 2 ? parts[1]! : "", doc: parts.slice(at + 1).join(" — ") };
}

/** The prose of a row: a declaration cell's doc sentence (nothing when it has none), any other row's whole text. */
export function proseOf(row: EvidenceRow): string {
  const declaration = declarationParts(row);
  return declaration ? declaration.doc : row.text;
}

/**
 * Sentences split at end punctuation followed by a capital, digit or quote;
 * then clauses split at `;`, at `, and`/`, but`/`, so`/`, which`/`, who`
 * joints, and at `: ` after a label of a few words (`origin: the origins…`
 * keeps the label with its definition). Each clause keeps its own words.
 */
export function clausesOf(row: EvidenceRow, rank: number): Clause[] {
  const prose = proseOf(row).trim();
  if (!prose) return [];
  const sentences = prose.split(/(?<=[.!?])\s+(?=[A-Z0-9"'`(*/])/);
  const clauses: Clause[] = [];
  for (const sentence of sentences) {
    for (const piece of sentence.split(/;\s+|,\s+(?=(?:and|but|so|which|who|while|whereas|after which)\b)/)) {
      const text = piece.trim().replace(/[.!?]+$/, "");
      if (text) clauses.push({ cellId: row.cellId, rank, index: clauses.length, text, words: wordsOf(text) });
    }
  }
  return clauses;
}

/** Words of a text: runs of letters, digits and the marks that hold a token together (`eu-west-1`, `SHA-256`, `/healthz`, `a@b.c`, `2.4.0`). */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}_$@*/][\p{L}\p{N}_$@*/.:+#%-]*[\p{L}\p{N}_$@*/%#+]|[\p{L}\p{N}_$@*/%]/gu)) {
    const raw = m[0];
    const lower = raw.toLowerCase();
    const split = raw
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .map((p) => stem(p.toLowerCase()));
    words.push({ raw, lower, stem: stem(lower), parts: split.length > 0 ? split : [stem(lower)], start: m.index, end: m.index + raw.length });
  }
  return words;
}
