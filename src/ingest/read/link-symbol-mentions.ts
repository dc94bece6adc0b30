import type { Queryable } from "../../store/db.js";
import { linkCellEntities } from "../../store/graph/entities.js";
import { symbolMentionCandidates } from "../../store/graph/named-entities.js";

/** A mentioned identifier naming more symbols than this is too vague to link. */
const MAX_SYMBOL_MATCHES = 3;

/**
 * Links mentions of these names (after a document or a code file was read)
 * to the live symbols they name, when they name at most a few.
 */
export async function linkSymbolMentions(tx: Queryable, projectId: string, names: readonly string[]): Promise<void> {
  await linkCellEntities(tx, await symbolMentionLinks(tx, projectId, names));
}

/** The links {@link linkSymbolMentions} writes: each mention of these names to the live symbols it names, when at most a few. */
export async function symbolMentionLinks(tx: Queryable, projectId: string, names: readonly string[]): Promise<Array<{ cellId: string; entityId: string }>> {
  const candidates = await symbolMentionCandidates(tx, projectId, names);
  const byMention = new Map<string, Set<string>>();
  for (const c of candidates) {
    const key = `${c.cellId}\u0000${c.name}`;
    byMention.set(key, (byMention.get(key) ?? new Set()).add(c.entityId));
  }
  return [...byMention.entries()]
    .filter(([, entities]) => entities.size <= MAX_SYMBOL_MATCHES)
    .flatMap(([key, entities]) => [...entities].map((entityId) => ({ cellId: key.split("\u0000")[0]!, entityId })));
}
