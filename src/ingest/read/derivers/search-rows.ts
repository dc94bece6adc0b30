import { fileDocument, reindexChanges } from "../../../store/search/reindex-changes.js";
import type { Deriver } from "./deriver.js";

/**
 * The reading's full-text rows: only those of the cells it added, retired
 * or re-headed (a kept cell's row stands), and the file's own row (title and
 * body). A reading that kept no cell rewrites the file's rows whole, and so
 * does a refused one (no cells: its rows go).
 */
export const searchRowsDeriver: Deriver = {
  name: "search-rows",
  async inWriter(tx, { file, output, changes }) {
    const document = fileDocument(output.cells.map((c) => ({ text: c.text, heading: output.factions[c.faction]?.factionType === "heading" })));
    await reindexChanges(tx, file.fileId, changes, document);
  },
};
