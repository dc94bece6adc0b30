import type { SymbolSearchRow, SymbolSearchSource } from "../../store/search/symbol-search.js";
import { searchableCode } from "../../retrieve/identifier-words.js";

/** Characters of a declaration's own text that are indexed; bodies beyond it add little. */
const MAX_BODY_CHARS = 20_000;

/**
 * The search row of one declaration: its names, header, doc comment, path
 * and own text, each with identifiers split into their words.
 */
export function symbolDocument(source: SymbolSearchSource): SymbolSearchRow {
  return {
    rowid: source.rowid,
    // The qualified name ends with the name: `Session.send` → "Session send".
    name: searchableCode(source.qualifiedName.replace(/\./g, " ")),
    signature: searchableCode(source.signature),
    doc: searchableCode(source.doc ?? ""),
    path: searchableCode(source.path.replace(/[/.\\-]+/g, " ")),
    body: searchableCode((source.body ?? "").slice(0, MAX_BODY_CHARS)),
  };
}
