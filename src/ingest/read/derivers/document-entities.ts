import { resolveMentions } from "../../../entities/resolve-mentions.js";
import type { LocatedMention } from "../../../entities/resolve-mentions.js";
import { spotEntities } from "../../../entities/spot-entities.js";
import type { ReadOutput } from "../../../readers/reader.js";
import { linkCellEntities } from "../../../store/graph/entities.js";
import { recordSymbolMentions, unlinkFileMentions, upsertNamedEntities } from "../../../store/graph/named-entities.js";
import { linkSymbolMentions } from "../link-symbol-mentions.js";
import type { Deriver } from "./deriver.js";

function spotAll(output: ReadOutput): LocatedMention<number>[] {
  const located: LocatedMention<number>[] = [];
  output.cells.forEach((cell, j) => {
    const f = output.factions[cell.faction];
    if (!f) return;
    const spotted = spotEntities({
      text: cell.text,
      isHeading: f.factionType === "heading",
      headingPath: f.headingPath,
      factionType: f.factionType,
      factionText: f.text,
    });
    for (const mention of spotted) located.push({ cell: j, mention });
  });
  return located;
}

/**
 * Entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge, and meet the same names from
 * other files through their spellings), linked to the cells that mention
 * them. Code identifiers become symbol mentions, linked to the code's
 * symbol entities now or when the code is read later. Code files have
 * their own entities (see `code-facts.ts`).
 */
export const documentEntitiesDeriver: Deriver = {
  name: "document-entities",
  async derive(tx, { file, output, ids, now }) {
    if (output.code) return;
    await unlinkFileMentions(tx, file.projectId, file.fileId);
    const resolved = resolveMentions(spotAll(output));
    const named = resolved.filter((e) => e.kind !== "symbol");
    const entityIds = await upsertNamedEntities(tx, file.projectId, named, now);
    await linkCellEntities(tx, named.flatMap((e, i) => e.cells.map((j) => ({ cellId: ids.cellIds[j]!, entityId: entityIds[i]! }))));
    const mentions = resolved
      .filter((e) => e.kind === "symbol")
      .flatMap((e) => e.cells.map((j) => ({ cellId: ids.cellIds[j]!, name: e.name })));
    await recordSymbolMentions(tx, file.projectId, mentions);
    await linkSymbolMentions(tx, file.projectId, [...new Set(mentions.map((m) => m.name))]);
  },
};
