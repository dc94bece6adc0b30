import type { Queryable } from "../../store/db.js";
import { replaceSymbolSearchRows, symbolSearchSources } from "../../store/search/symbol-search.js";
import { symbolDocument } from "./symbol-document.js";

/**
 * Rewrites the declaration search rows of one file from its live symbols;
 * runs in the transaction that wrote them.
 */
export async function indexFileSymbols(q: Queryable, fileId: string): Promise<void> {
  const sources = await symbolSearchSources(q, fileId);
  await replaceSymbolSearchRows(q, fileId, sources.map(symbolDocument));
}
