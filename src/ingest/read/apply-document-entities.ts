import { resolveMentions } from "../../entities/resolve-mentions.js";
import type { LocatedMention } from "../../entities/resolve-mentions.js";
import { spotEntities } from "../../entities/spot-entities.js";
import type { ReadOutput } from "../../readers/reader.js";
import type { Queryable } from "../../store/db.js";
import { linkCellEntities } from "../../store/graph/entities.js";
import {
  recordSymbolMentions,
  symbolMentionCandidates,
  unlinkFileMentions,
  upsertNamedEntities,
} from "../../store/graph/named-entities.js";

/** A mentioned identifier naming more symbols than this is too vague to link. */
const MAX_SYMBOL_MATCHES = 3;

/**
 * Entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge, and meet the same names from
 * other files through their spellings), linked to the cells that mention
 * them. Code identifiers become symbol mentions, linked to the code's
 * symbol entities now or when the code is read later.
 */
export async function applyDocumentEntities(
  tx: Queryable,
  target: { projectId: string; fileId: string },
  output: ReadOutput,
  cellIds: readonly string[],
  now: string,
): Promise<void> {
  if (output.code) return;
  await unlinkFileMentions(tx, target.projectId, target.fileId);
  const resolved = resolveMentions(spotAll(output));
  const named = resolved.filter((e) => e.kind !== "symbol");
  const ids = await upsertNamedEntities(tx, target.projectId, named, now);
  await linkCellEntities(tx, named.flatMap((e, i) => e.cells.map((j) => ({ cellId: cellIds[j]!, entityId: ids[i]! }))));
  const mentions = resolved
    .filter((e) => e.kind === "symbol")
    .flatMap((e) => e.cells.map((j) => ({ cellId: cellIds[j]!, name: e.name })));
  await recordSymbolMentions(tx, target.projectId, mentions);
  await linkSymbolMentions(tx, target.projectId, [...new Set(mentions.map((m) => m.name))]);
}

/**
 * Links mentions of these names (after a document or a code file was read)
 * to the live symbols they name, when they name at most a few.
 */
export async function linkSymbolMentions(tx: Queryable, projectId: string, names: readonly string[]): Promise<void> {
  const candidates = await symbolMentionCandidates(tx, projectId, names);
  const byMention = new Map<string, Set<string>>();
  for (const c of candidates) {
    const key = `${c.cellId}\u0000${c.name}`;
    byMention.set(key, (byMention.get(key) ?? new Set()).add(c.entityId));
  }
  const links = [...byMention.entries()]
    .filter(([, entities]) => entities.size <= MAX_SYMBOL_MATCHES)
    .flatMap(([key, entities]) => [...entities].map((entityId) => ({ cellId: key.split("\u0000")[0]!, entityId })));
  await linkCellEntities(tx, links);
}

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
