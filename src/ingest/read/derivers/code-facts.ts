/**
 * Persists a code file's facts in the reading's transaction: symbols by
 * stable id (kept, updated, revived or retired), the file's references and
 * imports replaced whole, its path keys, its graph entities and links, and
 * the declarations' full-text search rows.
 */
import { fileKeysFor } from "../../../code/module-keys.js";
import type { ReadOutput } from "../../../readers/reader.js";
import { updateFileReferences } from "../../../store/code/reference-changes.js";
import { replaceFileImports, replaceFileModuleKeys } from "../../../store/code/file-imports.js";
import { liveSymbolIdsOfFile, retireSymbols, upsertSymbols } from "../../../store/code/symbols.js";
import type { SymbolRecord } from "../../../store/code/symbols.js";
import type { Queryable } from "../../../store/db.js";
import { getFile } from "../../../store/files/files.js";
import { linkDeclarationCells, upsertCodeEntities } from "../code-entities.js";
import type { CodeEntityIds, DeclaredUnit } from "../code-entities.js";
import { indexFileSymbols } from "../index-symbols.js";
import { importRows, referenceRows } from "../reference-rows.js";
import type { Deriver, ReadingIds } from "./deriver.js";

/** Each declaration once (by symbol id) with its faction and cell. */
function declaredUnits(output: ReadOutput, ids: ReadingIds): DeclaredUnit[] {
  const declarations = output.code?.declarations ?? [];
  const cellOf = new Map<number, number>();
  output.cells.forEach((cell, j) => {
    if (cell.declaration !== undefined && !cellOf.has(cell.declaration)) cellOf.set(cell.declaration, j);
  });
  const seen = new Set<string>();
  const units: DeclaredUnit[] = [];
  declarations.forEach((declaration, i) => {
    if (seen.has(declaration.symbolId)) return;
    seen.add(declaration.symbolId);
    const j = cellOf.get(i);
    const cell = j === undefined ? undefined : output.cells[j];
    units.push({
      declaration,
      factionId: cell ? (ids.factionIds[cell.faction] ?? null) : null,
      cellId: j === undefined ? null : (ids.cellIds[j] ?? null),
    });
  });
  return units;
}

async function writeSymbols(
  q: Queryable,
  file: { projectId: string; fileId: string },
  language: string,
  units: readonly DeclaredUnit[],
  entities: CodeEntityIds,
  now: string,
): Promise<void> {
  const records: SymbolRecord[] = units.map(({ declaration: d, factionId, cellId }) => ({
    symbolId: d.symbolId,
    fileId: file.fileId,
    language,
    name: d.symbol,
    qualifiedName: d.qualifiedName,
    depth: d.container.length,
    kind: d.kind,
    lineStart: d.lines[0],
    lineEnd: d.lines[1],
    signature: d.signature,
    doc: d.doc ?? null,
    factionId,
    cellId,
    entityId: entities.symbols.get(d.symbolId) ?? null,
  }));
  const current = new Set(records.map((r) => r.symbolId));
  const gone = (await liveSymbolIdsOfFile(q, file.fileId)).filter((id) => !current.has(id));
  await retireSymbols(q, file.projectId, gone, now);
  await upsertSymbols(q, file.projectId, records);
}

/**
 * Writes the code index of one reading; a reading without code facts
 * leaves the index alone.
 */
export const codeFactsDeriver: Deriver = {
  name: "code-facts",
  async inWriter(tx, { file: target, output, ids, now }) {
    const facts = output.code;
    if (!facts) return;
    const row = await getFile(tx, target.projectId, target.fileId);
    if (!row) return;
    const file = { projectId: target.projectId, fileId: target.fileId, path: row.path };
    const units = declaredUnits(output, ids);
    const entities = await upsertCodeEntities(tx, file, units);
    await writeSymbols(tx, file, facts.language, units, entities, now);
    await indexFileSymbols(tx, file.fileId);
    await linkDeclarationCells(tx, units, entities);
    await updateFileReferences(tx, file, referenceRows(facts));
    await replaceFileImports(tx, file.projectId, file.fileId, importRows(facts, file.path));
    await replaceFileModuleKeys(tx, file.projectId, file.fileId, fileKeysFor(facts.language, file.path));
  },
};
