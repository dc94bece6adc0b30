/**
 * The packed form of `code_reference_sites`: a file's occurrences of one name
 * and kind share one row, their positions written as a short text. A row per
 * occurrence repeated the project, file, path and name in the table and
 * again in two indexes, most of the database's bytes for a code tree.
 */

/** One occurrence's position, as a site of a packed row holds it. */
export interface Site {
  lineStart: number;
  lineEnd: number;
  nameLine: number;
  nameCol: number;
  symbolId: string | null;
}

/** One packed row: a file's occurrences of a name and kind. */
export interface SiteGroup {
  name: string;
  kind: "declaration" | "usage";
  sites: Site[];
}

/** Listing order within a row: by line, then column; ties keep their given order (Array.prototype.sort is stable). */
const bySpot = (a: Site, b: Site) => a.lineStart - b.lineStart || a.nameCol - b.nameCol;

/** `line_start:name_col` for a one-line site with no symbol (every usage), else all five fields. */
function encodeSite(s: Site): string {
  if (s.lineEnd === s.lineStart && s.nameLine === s.lineStart && s.symbolId === null) return `${s.lineStart}:${s.nameCol}`;
  return `${s.lineStart}:${s.nameCol}:${s.lineEnd}:${s.nameLine}:${s.symbolId ?? ""}`;
}

/** The `sites` text of these positions, in listing order. */
export function encodeSites(sites: readonly Site[]): string {
  return [...sites].sort(bySpot).map(encodeSite).join(",");
}

/** The positions a `sites` text holds, in listing order. */
export function decodeSites(text: string): Site[] {
  return text.split(",").map((one) => {
    const [ls, nc, le, nl, sym] = one.split(":");
    const lineStart = Number(ls);
    if (le === undefined) return { lineStart, lineEnd: lineStart, nameLine: lineStart, nameCol: Number(nc), symbolId: null };
    return { lineStart, lineEnd: Number(le), nameLine: Number(nl), nameCol: Number(nc), symbolId: sym ? sym : null };
  });
}

/** Where a site's name stands: its line and column. */
export interface NameSpot {
  line: number;
  col: number;
}

const COMMA = 44;
const COLON = 58;

/**
 * The name positions of the sites a `sites` text holds whose name line
 * `keep` accepts, in listing order: what {@link decodeSites} gives, read in
 * one pass over the characters. The declarations a code pack starts from
 * ask for the usages inside their lines, and decoding every site of their
 * files into objects (a large C file holds thousands) was most of reading
 * them.
 */
export function nameSpots(text: string, keep: (line: number) => boolean): NameSpot[] {
  const out: NameSpot[] = [];
  let i = 0;
  while (i < text.length) {
    // Fields of one site: line_start, name_col[, line_end, name_line, symbol_id].
    let field = 0;
    let value = 0;
    let lineStart = 0;
    let col = 0;
    let nameLine = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === COMMA) break;
      if (c !== COLON) {
        value = value * 10 + (c - 48);
        continue;
      }
      if (field === 0) lineStart = value;
      else if (field === 1) col = value;
      else if (field === 3) nameLine = value;
      field++;
      value = 0;
    }
    if (field === 1) col = value;
    else if (field === 3) nameLine = value;
    i++;
    const line = field === 1 ? lineStart : nameLine;
    if (keep(line)) out.push({ line, col });
  }
  return out;
}

/** A file's occurrences grouped by name and kind, each group's sites in the order given. */
export function groupSites<T extends Site & { name: string; kind: "declaration" | "usage" }>(references: readonly T[]): SiteGroup[] {
  const groups = new Map<string, SiteGroup>();
  for (const r of references) {
    const key = `${r.kind}\u001f${r.name}`;
    const group = groups.get(key) ?? { name: r.name, kind: r.kind, sites: [] };
    group.sites.push({ lineStart: r.lineStart, lineEnd: r.lineEnd, nameLine: r.nameLine, nameCol: r.nameCol, symbolId: r.symbolId });
    groups.set(key, group);
  }
  return [...groups.values()];
}
