import { spotDocument } from "../../../entities/spot-document.js";
import { linkCellEntities } from "../../../store/graph/entities.js";
import { recordSymbolMentions, unlinkFileMentions, upsertNamedEntities } from "../../../store/graph/named-entities.js";
import { linkSymbolMentions } from "../link-symbol-mentions.js";
import type { Deriver } from "./deriver.js";

/**
 * Entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge, and meet the same names from
 * other files through their spellings), linked to the cells that mention
 * them. Code identifiers become symbol mentions, linked to the code's
 * symbol entities now or when the code is read later. Code files have
 * their own entities (see `code-facts.ts`). The spotting itself ran in the
 * reader thread (`spotted`); a reading persisted without it is spotted here.
 */
export const documentEntitiesDeriver: Deriver = {
  name: "document-entities",
  async derive(tx, { file, output, ids, now, spotted }) {
    if (output.code) return;
    await unlinkFileMentions(tx, file.projectId, file.fileId);
    const resolved = spotted ?? spotDocument(output);
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
