/**
 * A re-read code file's references written as a difference: packed rows
 * (a name and kind of the file) that read the same stay, the others are
 * deleted or inserted. Replacing the file's rows whole
 * (`replaceFileReferences`) rewrote every row for an edit that moved none
 * (a word in a doc comment): most of a one-line code edit's transaction. The
 * rows and the project's name list end the same as a whole replacement.
 */
import type { Queryable } from "../db.js";
import { FILE_ROWID, KIND, insertSiteGroups, syncCodeNames, usageFlag } from "./code-references.js";
import type { NewCodeReference } from "./code-references.js";
import { encodeSites, groupSites } from "./reference-sites.js";

/** A packed row's identity within its file. */
const keyOf = (name: string, kind: string) => `${kind}\u001f${name}`;

/** Makes the file's references equal `references`, writing only the packed rows that differ. */
export async function updateFileReferences(
  q: Queryable,
  file: { projectId: string; fileId: string; path: string },
  references: readonly NewCodeReference[],
): Promise<void> {
  const rows = await q.all<{ project_id: string; project_rowid: number; folded: string; name: string; kind: "declaration" | "usage"; file_rowid: number; sites: string }>(
    `SELECT p.project_id, r.project_rowid, r.folded, r.name, ${KIND} AS kind, r.file_rowid, r.sites
     FROM code_reference_sites r JOIN projects p ON p.rowid = r.project_rowid WHERE r.file_rowid = ${FILE_ROWID}`,
    [file.fileId],
  );
  const groups = groupSites(references);
  const wanted = new Map(groups.map((g) => [keyOf(g.name, g.kind), encodeSites(g.sites)]));
  const kept = new Set<string>();
  for (const r of rows) {
    const key = keyOf(r.name, r.kind);
    if (r.project_id === file.projectId && wanted.get(key) === r.sites) {
      kept.add(key);
      continue;
    }
    await q.execute(
      "DELETE FROM code_reference_sites WHERE project_rowid = ? AND folded = ? AND name = ? AND usage = ? AND file_rowid = ?",
      [r.project_rowid, r.folded, r.name, usageFlag(r.kind), r.file_rowid],
    );
  }
  await insertSiteGroups(q, file, groups.filter((g) => !kept.has(keyOf(g.name, g.kind))));
  await syncCodeNames(q, file.projectId, new Set(rows.map((r) => r.folded)), references);
}
