import type { Queryable } from "../db.js";
import { fillTextAtLines } from "../graph/faction-text.js";
import type { SlicedTextRow } from "../graph/faction-text.js";

/** A live faction of a document, table or config file, as typing reads it. */
export interface MaterialFaction {
  factionId: string;
  fileId: string;
  path: string;
  ordinal: number;
  factionType: string;
  inferredType: string;
  headingPath: string[];
  text: string;
}

/** A live cell of such a faction. */
export interface MaterialCell {
  cellId: string;
  factionId: string;
  parentCellId: string | null;
  ordinal: number;
  text: string;
}

/** Faction types a type can be read from (code units have their own structure). */
const TYPED_FACTIONS = ["heading", "list", "text", "config", "table", "row"];

/** Rows of one typed-faction read of the material (a text stored at its lines is filled from the chunk). */
interface FactionRow extends SlicedTextRow {
  faction_id: string;
  file_id: string;
  path: string;
  ordinal: number;
  faction_type: string;
  inferred_type: string;
  heading_path: string;
}

/** Rows of one cell read of the material. */
interface CellRow {
  cell_id: string;
  faction_id: string;
  parent_cell_id: string | null;
  ordinal: number;
  text: string;
}

/** File ids per statement when the material of some files is read. */
const FILES_PER_READ = 400;

/**
 * What typing reads in a project: the live factions of the kinds a shape
 * can show in, and their live cells, in file and reading order — of every
 * ready file, or of the ready files among `fileIds` (the incremental pass
 * reads only the files whose shapes a batch could change).
 */
export async function readTypingMaterial(
  q: Queryable,
  projectId: string,
  fileIds?: readonly string[],
): Promise<{ factions: MaterialFaction[]; cells: MaterialCell[] }> {
  const kinds = TYPED_FACTIONS.map(() => "?").join(", ");
  const factions: FactionRow[] = [];
  const cells: CellRow[] = [];
  const lists = fileIds === undefined ? [undefined] : chunks(fileIds, FILES_PER_READ);
  for (const list of lists) {
    const only = list === undefined ? "" : ` AND f.file_id IN (${list.map(() => "?").join(", ")})`;
    const args = [projectId, ...TYPED_FACTIONS, ...(list ?? [])];
    factions.push(
      ...(await q.all<FactionRow>(
        `SELECT f.faction_id, f.file_id, fl.path, f.ordinal, f.faction_type, f.inferred_type, f.heading_path, f.text,
           f.text_at_lines, f.line_start, f.line_end, fl.project_id, fl.read_chunk_id
         FROM factions f JOIN files fl ON fl.file_id = f.file_id
         WHERE fl.project_id = ? AND f.retired_at IS NULL AND fl.status = 'ready' AND f.faction_type IN (${kinds})${only}
         ORDER BY f.file_id, f.ordinal`,
        args,
      )),
    );
    cells.push(
      ...(await q.all<CellRow>(
        `SELECT c.cell_id, c.faction_id, c.parent_cell_id, c.ordinal, c.text
         FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fl ON fl.file_id = f.file_id
         WHERE fl.project_id = ? AND f.retired_at IS NULL AND c.retired_at IS NULL AND fl.status = 'ready' AND f.faction_type IN (${kinds})${only}
         ORDER BY c.faction_id, c.ordinal`,
        args,
      )),
    );
  }
  await fillTextAtLines(q, factions);
  return {
    factions: factions.map((f) => ({
      factionId: f.faction_id,
      fileId: f.file_id,
      path: f.path,
      ordinal: Number(f.ordinal),
      factionType: f.faction_type,
      inferredType: f.inferred_type,
      headingPath: JSON.parse(f.heading_path) as string[],
      text: f.text ?? "",
    })),
    cells: cells.map((c) => ({ cellId: c.cell_id, factionId: c.faction_id, parentCellId: c.parent_cell_id, ordinal: Number(c.ordinal), text: c.text })),
  };
}

/**
 * Rows (factions and cells) one page of typing material holds at most,
 * unless one file alone holds more (a file is never split: its sections
 * and tables are read whole). Paging keeps the pass's material bounded by
 * the page, not the project: the whole pass over the 1M-line tree's
 * documents held 20,263 factions and 43,132 cells (33 MB of live objects)
 * at once.
 */
export const PAGE_ROWS = 2_000;

/** What typing reads: factions and cells of some files, in file and reading order. */
export type TypingMaterial = Awaited<ReturnType<typeof readTypingMaterial>>;

/**
 * The typing material of a project's ready files (or of the ready files
 * among `fileIds`) in pages of whole files, in file id order, each page
 * at most `pageRows` rows unless one file holds more and at most
 * {@link FILES_PER_READ} files (one statement of each kind). The sizes are
 * counted first (file ids and counts, no content); a file that changes in
 * between is read as it stands.
 */
export async function* typingMaterialPages(
  q: Queryable,
  projectId: string,
  fileIds?: readonly string[],
  pageRows = PAGE_ROWS,
): AsyncGenerator<TypingMaterial> {
  let page: string[] = [];
  let rows = 0;
  for (const [fileId, n] of await materialSizes(q, projectId, fileIds)) {
    if (page.length > 0 && (rows + n > pageRows || page.length >= FILES_PER_READ)) {
      yield await readTypingMaterial(q, projectId, page);
      page = [];
      rows = 0;
    }
    page.push(fileId);
    rows += n;
  }
  if (page.length > 0) yield await readTypingMaterial(q, projectId, page);
}

/** Rows of typing material (factions and cells) per ready file that holds any, in file id order. */
async function materialSizes(q: Queryable, projectId: string, fileIds?: readonly string[]): Promise<Map<string, number>> {
  const kinds = TYPED_FACTIONS.map(() => "?").join(", ");
  const counts = new Map<string, number>();
  const lists = fileIds === undefined ? [undefined] : chunks(fileIds, FILES_PER_READ);
  for (const list of lists) {
    const only = list === undefined ? "" : ` AND f.file_id IN (${list.map(() => "?").join(", ")})`;
    const args = [projectId, ...TYPED_FACTIONS, ...(list ?? [])];
    const where = `fl.project_id = ? AND f.retired_at IS NULL AND fl.status = 'ready' AND f.faction_type IN (${kinds})${only}`;
    const factions = await q.all<{ file_id: string; n: number }>(
      `SELECT f.file_id, count(*) AS n FROM factions f JOIN files fl ON fl.file_id = f.file_id WHERE ${where} GROUP BY f.file_id`,
      args,
    );
    const cells = await q.all<{ file_id: string; n: number }>(
      `SELECT f.file_id, count(*) AS n FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fl ON fl.file_id = f.file_id
       WHERE ${where} AND c.retired_at IS NULL GROUP BY f.file_id`,
      args,
    );
    for (const r of [...factions, ...cells]) counts.set(r.file_id, (counts.get(r.file_id) ?? 0) + Number(r.n));
  }
  return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The ids of a project's ready files (no content): what the incremental pass compares its index with. */
export async function readyFileIds(q: Queryable, projectId: string): Promise<string[]> {
  const rows = await q.all<{ file_id: string }>("SELECT file_id FROM files WHERE project_id = ? AND status = 'ready'", [projectId]);
  return rows.map((r) => r.file_id);
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * The live cells of factions, ids only, each faction's in reading order:
 * what filing a type's members cites (the pass holds instances, not the
 * material they were read from).
 */
export async function cellIdsOfFactions(q: Queryable, factionIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const list of chunks([...new Set(factionIds)], FILES_PER_READ)) {
    const rows = await q.all<{ cell_id: string; faction_id: string }>(
      `SELECT c.cell_id, c.faction_id FROM cells c WHERE c.faction_id IN (${list.map(() => "?").join(", ")}) AND c.retired_at IS NULL
       ORDER BY c.faction_id, c.ordinal`,
      list,
    );
    for (const r of rows) {
      const ids = out.get(r.faction_id);
      if (ids) ids.push(r.cell_id);
      else out.set(r.faction_id, [r.cell_id]);
    }
  }
  return out;
}

/** The file ids of factions. */
export async function filesOfFactions(q: Queryable, factionIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < factionIds.length; i += 500) {
    const slice = factionIds.slice(i, i + 500);
    const rows = await q.all<{ faction_id: string; file_id: string }>(
      `SELECT faction_id, file_id FROM factions WHERE faction_id IN (${slice.map(() => "?").join(", ")})`,
      slice,
    );
    for (const r of rows) out.set(r.faction_id, r.file_id);
  }
  return out;
}
