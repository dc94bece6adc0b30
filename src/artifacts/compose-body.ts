/**
 * The Markdown of an artifact, with no model: chosen claims under headings
 * by entity and by source section, each claim followed by its cell id, and
 * the packing that keeps the body within its token budget. Pure: no I/O.
 */
import { requireBudget } from "../retrieve/budget.js";
import type { CountTokens } from "../core/tools.js";
import type { ArtifactKind } from "../store/artifacts/artifacts.js";

/** What heads the body: the same for every claim set. */
export interface BodyHeader {
  title: string;
  purpose: string;
  kind: ArtifactKind;
}

/** One claim as the body shows it. */
export interface Claim {
  cellId: string;
  text: string;
  /** The entity heading it goes under, or null (then it goes under "Other"). */
  entity: string | null;
  /** The source section heading: file path and its headings. */
  section: string;
  /** Where the claim sits in its file, for document order within a section. */
  position: readonly [factionOrdinal: number, cellOrdinal: number];
}

/** A composed body and the cell ids it cites, in body order. */
export interface Body {
  body: string;
  citations: string[];
}

/** The heading of claims that share no leading entity. */
export const OTHER_HEADING = "Other";

/** Matches a citation in a body: `[cel_…]` not preceded by a backslash. */
export const CITATION = /(?<!\\)\[(cel_[0-9A-Za-z]{22})\]/gu;

/** One line of text: white space collapsed, so a claim cannot open a heading or a list of its own. */
const oneLine = (s: string) => s.replace(/\s+/gu, " ").trim();
/** Brackets escaped, so text that looks like a citation is never read as one. */
const escapeBrackets = (s: string) => s.replace(/[[\]]/gu, (m) => `\\${m}`);
const headingText = (s: string) => escapeBrackets(oneLine(s).replace(/^#+\s*/u, "")) || "(untitled)";

/** The line under the title that states what the artifact is for: differs by kind. */
function intro(h: BodyHeader): string | undefined {
  const purpose = escapeBrackets(oneLine(h.purpose));
  if (h.kind === "report") return `**Purpose:** ${purpose}`;
  if (h.kind === "memo") return `**Re:** ${purpose}`;
  return undefined;
}

/** The bullet of one claim. */
export function claimLine(c: Claim): string {
  return `- ${escapeBrackets(oneLine(c.text))} [${c.cellId}]`;
}

/**
 * Renders the body. Claims are grouped by entity (groups in the order of
 * their best-ranked claim, `Other` last), then by source section (same
 * order), and shown in document order inside a section. When no claim has
 * an entity, sections are the top-level groups.
 */
export function renderBody(h: BodyHeader, ranked: readonly Claim[]): Body {
  const lines = [`# ${headingText(h.title)}`];
  const lead = intro(h);
  if (lead) lines.push("", lead);
  const citations: string[] = [];
  const byEntity = groupInOrder(ranked, (c) => c.entity ?? "");
  const other = byEntity.get("");
  byEntity.delete("");
  if (other) byEntity.set("", other);
  const entityLevel = byEntity.size > 1 || !byEntity.has("");
  for (const [entity, claims] of byEntity) {
    if (entityLevel) lines.push("", `## ${entity ? headingText(entity) : OTHER_HEADING}`);
    for (const [section, inSection] of groupInOrder(claims, (c) => c.section)) {
      lines.push("", `${entityLevel ? "###" : "##"} ${headingText(section)}`, "");
      for (const c of [...inSection].sort((a, b) => a.position[0] - b.position[0] || a.position[1] - b.position[1])) {
        lines.push(claimLine(c));
        citations.push(c.cellId);
      }
    }
  }
  return { body: `${lines.join("\n")}\n`, citations };
}

function groupInOrder<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** How many claims that do not fit may be passed over looking for shorter ones. */
const MAX_PASSES = 50;

/**
 * Packs claims in rank order into at most `budget` tokens of body. The floor
 * is the one budget rule (`requireBudget`): a budget below the body with no
 * claims is refused. Each claim is added while its line (and any heading it
 * opens) still fits by estimate; the exact count of the rendered body then
 * decides, dropping the lowest-ranked claims until it fits.
 */
export function packBody(h: BodyHeader, ranked: readonly Claim[], budget: number, count: CountTokens): Body & { used: number } {
  let estimate = count(renderBody(h, []).body);
  requireBudget(budget, estimate);
  const chosen: Claim[] = [];
  const openEntities = new Set<string>();
  const openSections = new Set<string>();
  let passes = 0;
  for (const c of ranked) {
    const entityKey = c.entity ?? "";
    const sectionKey = `${entityKey}\u0000${c.section}`;
    let cost = count(claimLine(c)) + 1;
    if (!openEntities.has(entityKey)) cost += count(`## ${c.entity ?? OTHER_HEADING}`) + 2;
    if (!openSections.has(sectionKey)) cost += count(`### ${c.section}`) + 3;
    if (estimate + cost > budget) {
      if (++passes > MAX_PASSES) break;
      continue;
    }
    chosen.push(c);
    openEntities.add(entityKey);
    openSections.add(sectionKey);
    estimate += cost;
  }
  let out = renderBody(h, chosen);
  let used = count(out.body);
  while (used > budget && chosen.length > 0) {
    chosen.pop();
    out = renderBody(h, chosen);
    used = count(out.body);
  }
  return { ...out, used };
}

/** Words of a claim for near-duplicate checks: letters and digits, lower-cased, longer than two characters. */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
}

/**
 * Drops claims that repeat a better-ranked one: the same text once white
 * space and case are set aside, or word sets overlapping by `similarity`
 * or more (Jaccard), across files too. Rank order is kept.
 */
export function dropNearDuplicates<T extends { text: string }>(ranked: readonly T[], similarity = 0.75): T[] {
  const kept: Array<{ flat: string; words: Set<string> }> = [];
  const out: T[] = [];
  for (const c of ranked) {
    const flat = oneLine(c.text).toLowerCase();
    const w = words(c.text);
    const dup = kept.some((k) => k.flat === flat || (w.size > 0 && jaccard(k.words, w) >= similarity));
    if (dup) continue;
    kept.push({ flat, words: w });
    out.push(c);
  }
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}
