import { linkSymbolMentions } from "../link-symbol-mentions.js";
import type { Deriver } from "./deriver.js";

/**
 * A code file's declarations meet the documents that mention them: mentions
 * recorded before the code was read (or re-read) are linked to its symbols.
 */
export const symbolMentionsDeriver: Deriver = {
  name: "symbol-mentions",
  async inWriter(tx, { file, output }) {
    if (!output.code) return;
    const declared = output.code.declarations.flatMap((d) => [d.symbol, d.qualifiedName]);
    await linkSymbolMentions(tx, file.projectId, [...new Set(declared)]);
  },
};
