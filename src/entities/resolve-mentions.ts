/**
 * Merges the mentions spotted across cells (and files) into entities:
 * spellings that differ only in case, plural, possessive, punctuation or a
 * leading "the" share `normalizeName`, and declared aliases ("X, also
 * called Y", "Long Name (LN)") join their groups. Each entity keeps the
 * cells that back it; a group no cell backs with confidence is left out.
 */
import { normalizeName } from "./normalize-name.js";
import { cleanName } from "./clean-name.js";
import { memoize } from "./memo.js";
import type { EntityMention, MentionKind, MentionSource } from "./entity-mention.js";

/** A mention and the cell it was spotted in (any key the caller uses for cells). */
export interface LocatedMention<C> {
  cell: C;
  mention: EntityMention;
}

/** One entity the mentions resolve to. */
export interface ResolvedEntity<C> {
  /** Display name: the most frequent capitalised spelling of the canonical name. */
  name: string;
  /** `normalizeName(name)`. */
  normName: string;
  kind: MentionKind;
  /** Other names of the entity (declared aliases), one spelling each. */
  aliases: string[];
  /** The normalised forms of the name and its aliases, for lookups by name. */
  normNames: string[];
  /** Cells that mention the entity, in first-seen order. */
  cells: C[];
  mentionCount: number;
  sources: MentionSource[];
}

/** Which kind wins a tie: the more specific first. */
const KIND_PRECEDENCE: readonly MentionKind[] = ["person", "organization", "place", "event", "symbol", "product", "concept"];

/** The key mentions are grouped by: spellings with one key are one entity (empty: the mention is left out). */
export const resolutionKey: (name: string) => string = memoize((name) => normalizeName(cleanName(name)));

const keyOf = resolutionKey;

class Groups {
  readonly #parent = new Map<string, string>();

  find(key: string): string {
    let root = key;
    for (let up = this.#parent.get(root); up !== undefined && up !== root; up = this.#parent.get(root)) root = up;
    this.#parent.set(key, root);
    return root;
  }

  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.#parent.set(ra, rb);
  }
}

/** Whether a group has a mention that stands on its own, or capitalised common words in two cells. */
function isBacked<C>(items: readonly LocatedMention<C>[]): boolean {
  if (items.some((i) => i.mention.hint === undefined)) return true;
  const commonCells = new Set(items.filter((i) => i.mention.hint === "common-word").map((i) => i.cell));
  return commonCells.size >= 2;
}

function mostFrequent(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best = names[0] ?? "";
  for (const [name, count] of counts) if (count > (counts.get(best) ?? 0)) best = name;
  return best;
}

/** The most frequent capitalised spelling among the canonical (non-alias) mentions. */
function displayName<C>(items: readonly LocatedMention<C>[], aliasKeys: ReadonlySet<string>): string {
  const confident = items.filter((i) => i.mention.hint === undefined);
  const pool = confident.length > 0 ? confident : items;
  const canonical = pool.filter((i) => !aliasKeys.has(keyOf(i.mention.name)));
  const names = (canonical.length > 0 ? canonical : pool).map((i) => cleanName(i.mention.name));
  const capitalised = names.filter((n) => /\p{Lu}/u.test(n));
  return mostFrequent(capitalised.length > 0 ? capitalised : names);
}

/** Majority kind of the confident mentions; ties go to the more specific kind. */
function majorityKind<C>(items: readonly LocatedMention<C>[]): MentionKind {
  const confident = items.filter((i) => i.mention.hint === undefined);
  const votes = new Map<MentionKind, number>();
  for (const i of confident.length > 0 ? confident : items) votes.set(i.mention.kind, (votes.get(i.mention.kind) ?? 0) + 1);
  let best: MentionKind = "concept";
  for (const kind of KIND_PRECEDENCE) if ((votes.get(kind) ?? 0) > (votes.get(best) ?? 0)) best = kind;
  return best;
}

function entityOf<C>(items: readonly LocatedMention<C>[], aliasKeys: ReadonlySet<string>): ResolvedEntity<C> {
  const name = displayName(items, aliasKeys);
  const normName = keyOf(name);
  const aliases = new Map<string, string>();
  for (const i of items) {
    const key = keyOf(i.mention.name);
    if (key !== normName && !aliases.has(key)) aliases.set(key, cleanName(i.mention.name));
  }
  return {
    name,
    normName,
    kind: majorityKind(items),
    aliases: [...aliases.values()],
    normNames: [normName, ...aliases.keys()],
    cells: [...new Set(items.map((i) => i.cell))],
    mentionCount: items.length,
    sources: [...new Set(items.map((i) => i.mention.source))],
  };
}

/**
 * Resolves mentions into entities, in order of first mention. Only groups
 * backed by at least one confident mention (see {@link isBacked}) become
 * entities, so every entity returned backs at least one cell.
 */
export function resolveMentions<C>(mentions: readonly LocatedMention<C>[]): ResolvedEntity<C>[] {
  const groups = new Groups();
  const aliasKeys = new Set<string>();
  const usable = mentions.filter((m) => keyOf(m.mention.name).length > 0);
  for (const { mention } of usable) {
    const key = keyOf(mention.name);
    groups.find(key);
    if (mention.aliasOf !== undefined && keyOf(mention.aliasOf).length > 0) {
      groups.union(key, keyOf(mention.aliasOf));
      if (key !== keyOf(mention.aliasOf)) aliasKeys.add(key);
    }
  }
  const byRoot = new Map<string, LocatedMention<C>[]>();
  for (const m of usable) {
    const root = groups.find(keyOf(m.mention.name));
    const items = byRoot.get(root);
    if (items === undefined) byRoot.set(root, [m]);
    else items.push(m);
  }
  return [...byRoot.values()].filter((items) => isBacked(items)).map((items) => entityOf(items, aliasKeys));
}
