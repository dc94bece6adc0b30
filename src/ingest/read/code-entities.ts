/**
 * The graph side of a code file: a `file` entity for the file, a `module`
 * entity for its folder, a `symbol` entity per declaration, and each
 * declaration cell backing all three.
 */
import { posix } from "node:path";
import type { CodeDeclaration } from "../../code/code-facts.js";
import { normalizeName } from "../../entities/normalize-name.js";
import type { Queryable } from "../../store/db.js";
import { linkCellEntities, sourcedKey, upsertSourcedEntities } from "../../store/graph/entities.js";
import type { CellEntityLink, SourcedEntity } from "../../store/graph/entities.js";

/** A declaration with the faction and cell that hold it in this reading. */
export interface DeclaredUnit {
  declaration: CodeDeclaration;
  factionId: string | null;
  cellId: string | null;
}

/** Entity ids of a code file's graph. */
export interface CodeEntityIds {
  file: string;
  /** Undefined for a file at the project root (it sits in no folder). */
  module: string | undefined;
  /** Symbol id → entity id. */
  symbols: Map<string, string>;
}

function entity(kind: SourcedEntity["kind"], sourceKey: string, name: string): SourcedEntity {
  return { kind, sourceKey, name, normName: normalizeName(name) };
}

/** Creates (or finds) the entities of a code file and its declarations. */
export async function upsertCodeEntities(
  q: Queryable,
  file: { projectId: string; fileId: string; path: string },
  units: readonly DeclaredUnit[],
): Promise<CodeEntityIds> {
  const folder = posix.dirname(file.path);
  const wanted = [entity("file", file.fileId, file.path)];
  if (folder !== ".") wanted.push(entity("module", folder, folder));
  for (const { declaration } of units) wanted.push(entity("symbol", declaration.symbolId, declaration.qualifiedName));
  const ids = await upsertSourcedEntities(q, file.projectId, wanted);
  const symbols = new Map(units.map((u) => [u.declaration.symbolId, ids.get(sourcedKey("symbol", u.declaration.symbolId))!]));
  return {
    file: ids.get(sourcedKey("file", file.fileId))!,
    module: folder === "." ? undefined : ids.get(sourcedKey("module", folder)),
    symbols,
  };
}

/** Links each declaration cell to its symbol, file and module entities. */
export async function linkDeclarationCells(q: Queryable, units: readonly DeclaredUnit[], ids: CodeEntityIds): Promise<void> {
  const links: CellEntityLink[] = [];
  for (const { declaration, cellId } of units) {
    if (!cellId) continue;
    const symbol = ids.symbols.get(declaration.symbolId);
    if (symbol) links.push({ cellId, entityId: symbol });
    links.push({ cellId, entityId: ids.file });
    if (ids.module) links.push({ cellId, entityId: ids.module });
  }
  await linkCellEntities(q, links);
}
