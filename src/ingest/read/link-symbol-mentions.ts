import type { Queryable } from "../../store/db.js";
import { linkCellEntities } from "../../store/graph/entities.js";
import { mentionedNames, mentionsOfNames, symbolEntitiesOfNames } from "../../store/graph/named-entities.js";

/** A mentioned identifier naming more symbols than this is too vague to link. */
const MAX_SYMBOL_MATCHES = 3;

/**
 * Links every recorded mention of these names (after a code file declaring
 * them was read) to the live symbols they name, when they name at most a
 * few. Which symbols a name names does not depend on the cell that
 * mentions it, so the names are resolved first and only the mentions of
 * names that resolve are read.
 */
export async function linkSymbolMentions(tx: Queryable, projectId: string, names: readonly string[]): Promise<void> {
  const entities = await symbolEntitiesOfNames(tx, projectId, await mentionedNames(tx, projectId, names), MAX_SYMBOL_MATCHES);
  if (entities.size === 0) return;
  await linkCellEntities(tx, mentionLinks(await mentionsOfNames(tx, projectId, [...entities.keys()]), entities));
}

/**
 * The links of these mentions (one document's) to the live symbols their
 * names name, when at most a few. Other files' mentions of the same names
 * are not read: they were linked when their own document was read, or
 * when a file declaring the name was (`linkSymbolMentions`).
 */
export async function symbolMentionLinks(
  tx: Queryable,
  projectId: string,
  mentions: ReadonlyArray<{ cellId: string; name: string }>,
): Promise<Array<{ cellId: string; entityId: string }>> {
  if (mentions.length === 0) return [];
  const entities = await symbolEntitiesOfNames(tx, projectId, mentions.map((m) => m.name), MAX_SYMBOL_MATCHES);
  return mentionLinks(mentions, entities);
}

/** Each mention linked to every entity its name names (each pair once). */
function mentionLinks(mentions: ReadonlyArray<{ cellId: string; name: string }>, entities: ReadonlyMap<string, readonly string[]>): Array<{ cellId: string; entityId: string }> {
  const seen = new Set<string>();
  const links: Array<{ cellId: string; entityId: string }> = [];
  for (const m of mentions) {
    for (const entityId of entities.get(m.name) ?? []) {
      const key = `${m.cellId}\u0000${entityId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      links.push({ cellId: m.cellId, entityId });
    }
  }
  return links;
}
