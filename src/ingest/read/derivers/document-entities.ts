import { spotDocument } from "../../../entities/spot-document.js";
import type { DocumentEntities } from "../../../entities/spot-document.js";
import { linkCellEntities } from "../../../store/graph/entities.js";
import { dropSymbolMentions, fileMentionLinks, fileSymbolMentions, unlinkPairs } from "../../../store/graph/mention-links.js";
import type { CellLink, CellMention } from "../../../store/graph/mention-links.js";
import { recordSymbolMentions, upsertNamedEntities } from "../../../store/graph/named-entities.js";
import { symbolMentionLinks } from "../link-symbol-mentions.js";
import type { Deriver } from "./deriver.js";

const linkKey = (l: CellLink) => `${l.cellId}\u0000${l.entityId}`;
const mentionKey = (m: CellMention) => `${m.cellId}\u0000${m.name}`;

/**
 * Entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge, and meet the same names from
 * other files through their spellings), linked to the cells that mention
 * them. Code identifiers become symbol mentions, linked to the code's
 * symbol entities now or when the code is read later. Code files have
 * their own entities (see `code-facts.ts`). Spotting and resolving names is
 * CPU work, so it runs in the reader thread (`inReader`), and the writer
 * only looks names up; a reading persisted without it is spotted here.
 *
 * The file's links and mentions end as if all were removed and written
 * anew, but only the difference is written: a re-read that kept most cells
 * keeps their rows.
 */
export const documentEntitiesDeriver: Deriver<DocumentEntities> = {
  name: "document-entities",
  inReader: ({ output }) => (output.code ? undefined : spotDocument(output)),
  async inWriter(tx, { file, output, ids, now }, spotted) {
    if (output.code) return;
    const resolved = spotted ?? spotDocument(output);
    const named = resolved.filter((e) => e.kind !== "symbol");
    const entityIds = await upsertNamedEntities(tx, file.projectId, named);
    const namedLinks = named.flatMap((e, i) => e.cells.map((j) => ({ cellId: ids.cellIds[j]!, entityId: entityIds[i]! })));

    const mentions = resolved
      .filter((e) => e.kind === "symbol")
      .flatMap((e) => e.cells.map((j) => ({ cellId: ids.cellIds[j]!, name: e.name })));
    const wanted = new Set(mentions.map(mentionKey));
    const recorded = await fileSymbolMentions(tx, file.fileId);
    const had = new Set(recorded.map(mentionKey));
    await dropSymbolMentions(tx, recorded.filter((m) => !wanted.has(mentionKey(m))));
    await recordSymbolMentions(tx, file.projectId, mentions.filter((m) => !had.has(mentionKey(m))));

    // This file's symbol links; other files' mentions of the same names keep theirs.
    const symbolLinks = await symbolMentionLinks(tx, file.projectId, mentions);
    const keep = new Set([...namedLinks, ...symbolLinks].map(linkKey));
    const existing = await fileMentionLinks(tx, file.projectId, file.fileId);
    await unlinkPairs(tx, existing.filter((l) => !keep.has(linkKey(l))));
    const present = new Set(existing.map(linkKey));
    await linkCellEntities(tx, [...namedLinks, ...symbolLinks].filter((l) => !present.has(linkKey(l))));
  },
};
