/**
 * Cuts a source file into `code_unit` factions, one per declaration, and
 * one cell per declaration. Every line belongs to the innermost declaration
 * around it (a doc comment to the declaration it documents), so an edit
 * inside a method changes that method's faction only: its class keeps its
 * header and closing lines, not its members' bodies. Lines outside every
 * declaration (imports, top-level statements) become cell-less factions,
 * one per paragraph.
 */
import type { CodeDeclaration, CodeFacts } from "../../code/code-facts.js";
import { declarationCellText } from "./declaration-cell.js";
import type { ReadCell, ReadFaction, ReadOutput } from "../reader.js";

/** Longest top-level paragraph kept as one faction, so edits stay local. */
const MAX_GAP_LINES = 100;
/** Lines that may carry a doc comment or an attribute above a declaration. */
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#|--)/;
const BLANK = /^\s*$/;

interface Ownership {
  /** Per 1-based line: index of the owning declaration, or -1. */
  owner: Int32Array;
  /** Per declaration: first line of its unit (its doc comment, else its first line). */
  from: number[];
}

/** Declaration indexes, outer before inner. */
function outerFirst(declarations: readonly CodeDeclaration[]): number[] {
  return declarations
    .map((_, i) => i)
    .sort((a, b) => {
      const da = declarations[a]!.lines;
      const db = declarations[b]!.lines;
      return da[0] - db[0] || db[1] - da[1] || a - b;
    });
}

function assignOwners(declarations: readonly CodeDeclaration[], lines: readonly string[]): Ownership {
  const owner = new Int32Array(lines.length + 2).fill(-1);
  const from = declarations.map((d) => d.lines[0]);
  for (const i of outerFirst(declarations)) {
    const d = declarations[i]!;
    const start = Math.max(1, d.lines[0]);
    const end = Math.min(lines.length, d.lines[1]);
    const parent = owner[start];
    owner.fill(i, start, end + 1);
    if (!d.doc) continue;
    for (let l = start - 1; l >= 1 && owner[l] === parent && COMMENT_LINE.test(lines[l - 1] ?? ""); l--) {
      owner[l] = i;
      from[i] = l;
    }
  }
  return { owner, from };
}

/** The unit's own lines: members' lines are left to the members, and with them the blank lines between. */
function unitText(i: number, d: CodeDeclaration, own: Ownership, lines: readonly string[]): string {
  const start = d.lines[0];
  const end = Math.min(lines.length, d.lines[1]);
  const kept: string[] = [];
  let holes = false;
  for (let l = own.from[i] ?? start; l <= end; l++) {
    if (own.owner[l] === i || l === start || l === end) kept.push(lines[l - 1] ?? "");
    else holes = true;
  }
  return (holes ? kept.filter((line) => !BLANK.test(line)) : kept).join("\n");
}

/** Paragraphs of lines no declaration owns. */
function gapFactions(own: Ownership, lines: readonly string[], inferredType: string): ReadFaction[] {
  const factions: ReadFaction[] = [];
  let run: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const text = run.map((l) => lines[l - 1] ?? "").join("\n");
    factions.push({ factionType: "code_unit", inferredType, location: { lineStart: run[0]!, lineEnd: run.at(-1)! }, text, headingPath: [] });
    run = [];
  };
  for (let l = 1; l <= lines.length; l++) {
    const free = own.owner[l] === -1 && !BLANK.test(lines[l - 1] ?? "");
    if (!free || run.length >= MAX_GAP_LINES) flush();
    if (free) run.push(l);
  }
  flush();
  return factions;
}

/**
 * Factions and cells of a source file. Each cell carries `declaration`, the
 * index of its declaration in `facts.declarations`.
 * @param path the file's project path (named in each cell)
 * @param source the file's text, line endings normalised
 * @param facts the file's code facts
 * @param inferredType media type of the factions
 */
export function codeUnits(path: string, source: string, facts: CodeFacts, inferredType: string): ReadOutput {
  const lines = source.split("\n");
  const declarations = facts.declarations;
  const own = assignOwners(declarations, lines);
  const units = declarations.map((d, i) => ({
    faction: {
      factionType: "code_unit",
      inferredType,
      location: { lineStart: own.from[i] ?? d.lines[0], lineEnd: Math.max(d.lines[0], Math.min(lines.length, d.lines[1])) },
      text: unitText(i, d, own, lines),
      headingPath: [...d.container],
    } satisfies ReadFaction,
    declaration: i,
  }));
  const gaps = gapFactions(own, lines, inferredType).map((faction) => ({ faction, declaration: undefined }));
  const ordered = [...units, ...gaps].sort((a, b) => (a.faction.location.lineStart ?? 0) - (b.faction.location.lineStart ?? 0));
  const cells: ReadCell[] = [];
  ordered.forEach((unit, faction) => {
    if (unit.declaration === undefined) return;
    const text = declarationCellText(declarations[unit.declaration]!, path);
    cells.push({ faction, text, declaration: unit.declaration });
  });
  return { factions: ordered.map((unit) => unit.faction), cells, code: facts };
}
