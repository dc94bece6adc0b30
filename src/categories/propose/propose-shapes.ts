/**
 * Types proposed by ingestion: instances that share a shape — sections
 * headed "Incident: …" with the same keys, rows of one table, front matter
 * of like documents — become one proposal with a name, fields typed from
 * their values, and the instances as evidence. Pure: instances in,
 * proposals out; whether a proposal is shown, accepted or dismissed is
 * decided elsewhere, by its fingerprint.
 */
import type { SchemaField } from "../../vocabulary.js";
import { createHash } from "node:crypto";
import type { Instance, InstanceSource } from "../instance.js";
import { fieldNameOf, hintKey, keyOf, slugOf, uniqueFieldName } from "./field-name.js";
import { inferFieldType } from "./infer-field-type.js";

/** One proposed type. */
export interface ShapeProposal {
  /** The type's name: the instances' type hint as most of them write it, or one read from their keys. */
  name: string;
  /** One sentence on what was seen: how many of what, with which keys. */
  description: string;
  fields: SchemaField[];
  /**
   * The anchor faction of each instance, in the order of `instances` (a
   * section's heading, a row, a front-matter block; objects of a small
   * config file share the file's one faction, so an id may repeat).
   */
  evidence: string[];
  /**
   * `<source>:<name slug>` ("section:incident", "table:customer",
   * "front-matter:document"): the same shape read again — more instances,
   * a field more or less — has the same fingerprint, so a proposal once
   * accepted or dismissed is recognised. Typed shapes use the singular,
   * lower-case type hint, so "Incident" and "Incidents" are one shape. An
   * untyped shape whose fingerprint another proposal of the same reading
   * already has gets `+<key>+<key>` added (its two most stated keys).
   */
  fingerprint: string;
  instances: Instance[];
  /**
   * Every key at least {@link MIN_INSTANCES} instances state, as fields
   * (`fields` plus the keys below the half share). A shape that belongs to
   * a confirmed type proposes the ones its schema lacks: a field new
   * material starts to state shows there before it is in half the members.
   */
  candidates: SchemaField[];
}

/** Fewest instances a proposal stands on. */
export const MIN_INSTANCES = 2;
/** Fewest fields a proposal has: one shared key is a coincidence, not a shape. */
export const MIN_FIELDS = 2;
/** A key is a field when at least this share of the instances state it (and at least two do). */
export const FIELD_SHARE = 0.5;
/** Instances without a type hint group when they share at least this many keys… */
export const MIN_SHARED_KEYS = 3;
/** …and their key sets overlap at least this much (Jaccard: shared keys over all keys). */
export const MIN_KEY_OVERLAP = 0.6;
/**
 * Groups one key leads to, at most. A key that many unlike groups started
 * with (`a`, `id`, `name` across thousands of table rows whose overlap
 * falls short) says nothing about where an instance belongs, and following
 * every one of them made grouping quadratic: 60,000 rows of hostile CSV
 * held the main thread for 100 s. Groups are still found through their
 * other keys.
 */
const MAX_GROUPS_PER_KEY = 64;
/** Keys listed in a proposal's description before "…". */
const DESCRIBED_KEYS = 8;

/** Keys of an architecture decision record (Nygard's template and its kin). */
const DECISION_KEYS = ["status", "context", "decision", "consequences"];
/** Of them, how many make a key set a decision record. */
const DECISION_KEYS_NEEDED = 3;

const NOUNS: Readonly<Record<InstanceSource, [string, string]>> = {
  section: ["section", "sections"],
  "front-matter": ["front matter block", "front matter blocks"],
  table: ["row", "rows"],
  config: ["object", "objects"],
};

/** A group of instances and the name it goes by. */
interface Group {
  source: InstanceSource;
  name: string;
  /** The type hint the group was formed by; undefined for a group formed by keys. */
  hint: string | undefined;
  fingerprint: string;
  instances: Instance[];
}

/** What one key looks like across a group. */
interface KeyStat {
  key: string;
  spellings: Map<string, number>;
  first: number;
  count: number;
  values: string[];
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The key sets of an instance, in normal form. */
function keysOf(instance: Instance): Set<string> {
  return new Set(instance.values.map((v) => keyOf(v.key)));
}

/** The most frequent string, ties to the first in code-unit order. */
function mostCommon(counts: ReadonlyMap<string, number>): string | undefined {
  return [...counts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]?.[0];
}

function countInto(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function keyStats(instances: readonly Instance[]): KeyStat[] {
  const stats = new Map<string, KeyStat>();
  let order = 0;
  for (const instance of instances) {
    const seen = new Set<string>();
    for (const value of instance.values) {
      const key = keyOf(value.key);
      if (seen.has(key)) continue;
      seen.add(key);
      let stat = stats.get(key);
      if (stat === undefined) {
        stat = { key, spellings: new Map(), first: order++, count: 0, values: [] };
        stats.set(key, stat);
      }
      countInto(stat.spellings, value.key);
      stat.count++;
      stat.values.push(value.value);
    }
  }
  return [...stats.values()];
}

/** Keys stated by at least {@link FIELD_SHARE} of the instances and by at least two, in order of first appearance. */
function fieldStats(instances: readonly Instance[], share = FIELD_SHARE): KeyStat[] {
  const needed = Math.max(MIN_INSTANCES, Math.ceil(instances.length * share));
  return keyStats(instances)
    .filter((s) => s.count >= needed)
    .sort((a, b) => a.first - b.first);
}

function spelling(stat: KeyStat): string {
  return mostCommon(stat.spellings) ?? stat.key;
}

/**
 * Untyped instances of one source, grouped greedily: each joins the
 * earliest group whose first instance it matches (shared keys and overlap
 * as set out on {@link proposeShapes}), else starts one. Only groups whose
 * first instance shares a key with it are looked at (found by key, up to
 * {@link MAX_GROUPS_PER_KEY} a key), so thousands of unlike sections cost
 * no more than their keys. An instance with fewer than
 * {@link MIN_SHARED_KEYS} keys can neither join a group nor be joined: it
 * is left out at once.
 */
function clusterByKeys(instances: readonly Instance[]): Instance[][] {
  const clusters: { seed: Set<string>; members: Instance[] }[] = [];
  const byKey = new Map<string, number[]>();
  for (const instance of instances) {
    const keys = keysOf(instance);
    if (keys.size < MIN_SHARED_KEYS) continue;
    const shared = new Map<number, number>();
    for (const key of keys) for (const c of byKey.get(key) ?? []) shared.set(c, (shared.get(c) ?? 0) + 1);
    const home = [...shared]
      .filter(([c, n]) => n >= MIN_SHARED_KEYS && n / (keys.size + (clusters[c]?.seed.size ?? 0) - n) >= MIN_KEY_OVERLAP)
      .map(([c]) => c)
      .sort((a, b) => a - b)[0];
    if (home !== undefined) {
      clusters[home]?.members.push(instance);
      continue;
    }
    for (const key of keys) {
      const list = byKey.get(key);
      if (list === undefined) byKey.set(key, [clusters.length]);
      else if (list.length < MAX_GROUPS_PER_KEY) list.push(clusters.length);
    }
    clusters.push({ seed: keys, members: [instance] });
  }
  return clusters.map((c) => c.members).filter((m) => m.length >= MIN_INSTANCES);
}

/**
 * The name of a group formed by keys: "Decision record" when three of
 * status, context, decision and consequences are among its keys; for
 * front matter "Document"; for sections the first word most of their
 * titles share ("Retro" of "Retro March", "Retro April"); else "Record".
 */
function nameFromKeys(source: InstanceSource, instances: readonly Instance[]): string {
  const keys = new Set(fieldStats(instances).map((s) => s.key));
  if (DECISION_KEYS.filter((k) => keys.has(k)).length >= DECISION_KEYS_NEEDED) return "Decision record";
  if (source === "front-matter") return "Document";
  if (source === "section") {
    const words = new Map<string, number>();
    for (const instance of instances) {
      const word = /^\p{L}{3,}/u.exec(instance.title)?.[0];
      if (word !== undefined) countInto(words, word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
    }
    const top = mostCommon(words);
    if (top !== undefined && (words.get(top) ?? 0) * 2 > instances.length) return top;
  }
  return "Record";
}

/** An instance's type hint in the form groups compare ("" when it has none). */
function hintOf(instance: Instance): string {
  return instance.typeHint === undefined ? "" : hintKey(instance.typeHint);
}

/**
 * Whether an instance can be in any proposal: one with a type hint, or one
 * with at least {@link MIN_SHARED_KEYS} keys (with fewer it can neither
 * join a group formed by keys nor start one: see `clusterByKeys`). A pass
 * that reads a project in pages keeps only these, and proposes the same.
 */
export function canJoinShape(instance: Instance): boolean {
  return hintOf(instance).length > 0 || keysOf(instance).size >= MIN_SHARED_KEYS;
}

/** Groups of instances: by source and type hint where there is one, by shared keys where there is none. */
function groupsOf(instances: readonly Instance[]): Group[] {
  const typed = new Map<string, Instance[]>();
  const untyped = new Map<InstanceSource, Instance[]>();
  for (const instance of instances) {
    const hint = hintOf(instance);
    if (hint.length > 0) {
      const id = `${instance.source}\u0000${hint}`;
      const members = typed.get(id);
      if (members === undefined) typed.set(id, [instance]);
      else members.push(instance);
    } else {
      const members = untyped.get(instance.source);
      if (members === undefined) untyped.set(instance.source, [instance]);
      else members.push(instance);
    }
  }
  const groups: Group[] = [];
  for (const members of typed.values()) {
    const first = members[0] as Instance;
    const spellings = new Map<string, number>();
    for (const m of members) countInto(spellings, m.typeHint ?? "");
    const name = mostCommon(spellings) ?? "";
    const fingerprint = `${first.source}:${slugOf(hintKey(name))}`;
    groups.push({ source: first.source, name, hint: name, fingerprint, instances: members });
  }
  for (const [source, members] of untyped) {
    for (const cluster of clusterByKeys(members)) {
      const name = nameFromKeys(source, cluster);
      groups.push({ source, name, hint: undefined, fingerprint: `${source}:${slugOf(name)}`, instances: cluster });
    }
  }
  return groups;
}

function plural(n: number, [one, many]: readonly [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describe(group: Group, instances: readonly Instance[], stats: readonly KeyStat[], renamed: readonly string[]): string {
  const n = instances.length;
  const files = new Set(instances.map((i) => i.fileId)).size;
  const shown = stats.slice(0, DESCRIBED_KEYS).map(spelling);
  const keys = shown.join(", ") + (stats.length > DESCRIBED_KEYS ? ", …" : "");
  const across = files > 1 ? ` across ${files} files` : "";
  let what: string;
  if (group.source === "section") {
    what = group.hint === undefined ? plural(n, NOUNS.section) : `${plural(n, NOUNS.section)} headed "${group.hint}: …"`;
  } else if (group.source === "front-matter") {
    what = `${plural(n, NOUNS["front-matter"])}${group.hint === undefined ? "" : ` of type "${group.hint}"`}`;
  } else if (group.source === "table") {
    what = `${plural(n, NOUNS.table)} of ${group.hint === undefined ? "a table" : `a ${group.hint} table`}`;
  } else {
    what = `${plural(n, NOUNS.config)} of configuration${group.hint === undefined ? "" : ` read as ${group.hint}`}`;
  }
  const notes = renamed.length > 0 ? `; ${renamed.join("; ")}` : "";
  return `${what}${across} with ${keys}${notes}`;
}

/** The proposal of one group, or undefined when the group has too few instances or fields. */
function proposalOf(group: Group): ShapeProposal | undefined {
  let instances = group.instances;
  let stats = fieldStats(instances);
  const holding = instances.filter((i) => {
    const keys = keysOf(i);
    return stats.some((s) => keys.has(s.key));
  });
  if (holding.length < instances.length) {
    instances = holding;
    stats = fieldStats(instances);
  }
  if (instances.length < MIN_INSTANCES || stats.length < MIN_FIELDS) return undefined;
  const [one, many] = NOUNS[group.source];
  const taken = new Set<string>();
  const renamed: string[] = [];
  const toField = (stat: KeyStat): SchemaField => {
    const written = spelling(stat);
    const { name: base, reserved } = fieldNameOf(written);
    const name = uniqueFieldName(base, taken);
    let description = `"${written}" in ${stat.count} of ${instances.length} ${group.name} ${instances.length === 1 ? one : many}`;
    if (reserved !== undefined) {
      description += ` (named ${name}: "${reserved}" is reserved)`;
      renamed.push(`"${written}" is ${name}, as "${reserved}" is reserved`);
    }
    return { name, type: inferFieldType(stat.values), description, required: stat.count === instances.length };
  };
  const fields = stats.map(toField);
  const stated = new Set(stats.map((s) => s.key));
  const candidates = [...fields, ...fieldStats(instances, 0).filter((s) => !stated.has(s.key)).map(toField)];
  return {
    name: group.name,
    description: describe(group, instances, stats, renamed),
    fields,
    evidence: instances.map((i) => i.factionIds[0] ?? ""),
    fingerprint: group.fingerprint,
    instances: [...instances],
    candidates,
  };
}

/** The two keys most instances state, in normal form and sorted, for telling apart two untyped shapes of one name. */
function keyTag(proposal: ShapeProposal): string {
  const stats = keyStats(proposal.instances).sort((a, b) => b.count - a.count || compareText(a.key, b.key));
  return stats
    .slice(0, 2)
    .map((s) => slugOf(s.key))
    .sort(compareText)
    .map((k) => `+${k}`)
    .join("");
}

/** The whole key set the instances state, in normal form and sorted, as a short digest: `~<12 hex>`. */
function allKeysTag(proposal: ShapeProposal): string {
  const keys = keyStats(proposal.instances)
    .map((s) => slugOf(s.key))
    .sort(compareText);
  return `~${createHash("sha256").update(keys.join("\n")).digest("hex").slice(0, 12)}`;
}

/**
 * Proposed types of the given instances (read by `readInstances`, from any
 * number of files). Instances are taken in `fileId` order, those of one
 * file in the order given, so the output does not depend on the order of
 * files.
 *
 * Grouping: instances of one source with the same type hint (ignoring case
 * and plural: "Incident", "incidents") form a group; instances without a
 * hint join the first group of their source whose first instance shares at
 * least {@link MIN_SHARED_KEYS} keys with them at a Jaccard overlap of at
 * least {@link MIN_KEY_OVERLAP}, and are named from their keys (see
 * `nameFromKeys`: "Decision record", "Document", a shared title word, or
 * "Record").
 *
 * A group becomes a proposal when it has at least {@link MIN_INSTANCES}
 * instances (from one file or several) and {@link MIN_FIELDS} fields.
 * Fields are the keys at least half the instances (and at least two)
 * state, in order of first appearance, named in camelCase (a reserved name
 * gets "Value" appended and the description says so), typed by
 * `inferFieldType` over their values, required when every instance states
 * them. Instances that state none of the fields are dropped from the group
 * (and its fields counted again without them): a heading that shares only
 * its type word is no evidence of the shape.
 *
 * Proposals come sorted by name, then fingerprint.
 */
export function proposeShapes(instances: Instance[]): ShapeProposal[] {
  const ordered = instances
    .map((instance, index) => ({ instance, index }))
    .sort((a, b) => compareText(a.instance.fileId, b.instance.fileId) || a.index - b.index)
    .map((o) => o.instance);
  const proposals = groupsOf(ordered).flatMap((group) => {
    const proposal = proposalOf(group);
    return proposal === undefined ? [] : [{ proposal, typed: group.hint !== undefined }];
  });
  const fingerprints = new Map<string, number>();
  for (const { proposal } of proposals) countInto(fingerprints, proposal.fingerprint);
  for (const { proposal, typed } of proposals) {
    if (!typed && (fingerprints.get(proposal.fingerprint) ?? 0) > 1) proposal.fingerprint += keyTag(proposal);
  }
  // Still shared (three or more shapes whose two most stated keys agree): the
  // later ones take their whole key set, then a counter. A fingerprint names
  // one proposal of the project, so two shapes may never share one.
  const taken = new Set<string>();
  for (const { proposal } of proposals) {
    if (taken.has(proposal.fingerprint)) {
      const whole = `${proposal.fingerprint}${allKeysTag(proposal)}`;
      let unique = whole;
      for (let n = 2; taken.has(unique); n++) unique = `${whole}#${n}`;
      proposal.fingerprint = unique;
    }
    taken.add(proposal.fingerprint);
  }
  return proposals
    .map((p) => p.proposal)
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.fingerprint, b.fingerprint));
}
