/**
 * Re-reading an edited Markdown document without parsing all of it again.
 *
 * The document is cut at the lines where a top-level heading may start
 * (`blockStarts`); each part is named by the hash of its text, the
 * heading lines that follow it and the link and footnote labels defined in
 * the document. A part whose name the previous reading of the same path
 * already holds reuses that reading's items; only the others are parsed.
 * The items of all parts are then replayed in order, so heading paths and
 * parent cells come out as a full parse gives them, and lines are moved by
 * the lines above each part.
 *
 * Exactness rests on three checks; where they fail, the whole document
 * is parsed (counted, and logged):
 *
 * - A cut is taken only when the parser confirms it: a part is parsed with
 *   the following heading's lines after it, and that heading must come out
 *   as a top-level node starting on its own line (else a fence, an HTML
 *   block or a table swallowed it, and the part is joined to the next;
 *   past a few joins the whole document is parsed). A first reading,
 *   which parses the whole document, confirms its cuts from the same tree.
 *   Front matter is never cut (see `markdown-blocks.ts`).
 * - Link reference and footnote definitions count anywhere in the document
 *   (`[x]` is a link only when some `[x]: …` exists). Each part is parsed
 *   with the previous reading's labels defined next to it, and the labels
 *   the parts actually define must equal them; a document whose
 *   definitions changed is parsed whole.
 * - The labels are written back as definitions and the parser must read
 *   exactly those labels from them.
 *
 * A document whose changed parts outweigh it (each parse counted with a
 * setup cost) is parsed whole too, which is cheaper, and only counted.
 *
 * The previous readings live in a cache of the thread that reads (readers
 * run in persistent threads; see `MarkdownPartCache`), so a reading in
 * another thread, or after a restart, parses the whole document once.
 */
import { createHash } from "node:crypto";
import { log } from "../../logger.js";
import { DocumentBuilder } from "../common/document-builder.js";
import type { ReadOutput } from "../reader.js";
import { blockStarts } from "./markdown-blocks.js";
import type { BlockStart } from "./markdown-blocks.js";
import { itemOf, replayItems } from "./markdown-items.js";
import type { MarkdownItem } from "./markdown-items.js";
import { parseMarkdown } from "./markdown-parse.js";
import type { ContainerBlock, MarkdownBlock, MarkdownTree } from "./markdown-tree.js";

/** Why a re-reading parsed the whole document although an earlier reading was at hand. */
export type FallbackReason = "unsafe-split" | "definitions-changed" | "definitions-unwritable" | "mostly-changed";

/** What readings did in this thread since it started (or since the counts were reset). */
export interface MarkdownReadCounts {
  /** Readings that parsed the whole document: first readings and fallbacks. */
  full: number;
  /** Readings assembled from parts. */
  incremental: number;
  /** Parts parsed by incremental readings (confirmed or not). */
  partsParsed: number;
  /** Parts taken from an earlier reading. */
  partsReused: number;
  /** Cuts of the scan that the parser did not confirm, so their parts were joined. */
  cutsUnconfirmed: number;
  fallbacks: Record<FallbackReason, number>;
}

/** The link and footnote labels a document defines (normalized identifiers, sorted, unique). */
interface Definitions {
  readonly links: readonly string[];
  readonly footnotes: readonly string[];
  /** Their hash, part of every part's name ("" when there are none). */
  readonly key: string;
}

/** A part's reading: its items (lines from the part's first line) and the labels it defines itself. */
interface PartReading {
  readonly items: readonly MarkdownItem[];
  readonly links: readonly string[];
  readonly footnotes: readonly string[];
}

/** A part, or the word that its cut was not confirmed (the part must be joined to the next). */
type Cached = PartReading | "unconfirmed";

/** The previous reading of one path. */
interface FileEntry {
  readonly definitions: Definitions;
  readonly parts: ReadonlyMap<string, Cached>;
  readonly chars: number;
}

/**
 * Characters of Markdown whose parts a thread keeps, by default: a dozen
 * long documents (an edited document is read again within seconds, so the
 * ones read last are the ones that count). Each character kept holds about
 * 4 bytes of the thread's heap with its parts: the 8,000,000 this was
 * before held about 13 MB after the 3.0 M characters of Markdown of a
 * 1.3 M-line tree, and would have held about 35 MB on a larger one, in a
 * cold ingest that reads each document once.
 */
export const DEFAULT_CACHE_CHARS = 1_000_000;

/**
 * What one more parse costs beside its text, in characters of Markdown: a
 * parser is set up for every part, so many small changed parts can cost
 * more than one parse of the whole document, which is then parsed instead.
 */
export const PARSE_SETUP_CHARS = 1_000;

/**
 * The previous reading of recently read paths, by path, least recently
 * read first out, bounded by the characters of the documents held. A path
 * keeps only the parts of its latest reading, so parts of text long gone
 * leave at the next reading. Outputs hold slices of the text, so the size
 * of the text bounds the memory well enough; a document larger than the
 * whole bound is not kept.
 */
export class MarkdownPartCache {
  readonly #files = new Map<string, FileEntry>();
  #chars = 0;
  /** The bound, in characters of the documents held. */
  readonly maxChars: number;
  /** What setting up one more parse costs, in characters (see `PARSE_SETUP_CHARS`). */
  readonly parseSetupChars: number;

  constructor(options: { maxChars?: number; parseSetupChars?: number } = {}) {
    this.maxChars = options.maxChars ?? DEFAULT_CACHE_CHARS;
    this.parseSetupChars = options.parseSetupChars ?? PARSE_SETUP_CHARS;
  }

  /** The previous reading of `path`, now the most recently used. */
  get(path: string): FileEntry | undefined {
    const entry = this.#files.get(path);
    if (entry === undefined) return undefined;
    this.#files.delete(path);
    this.#files.set(path, entry);
    return entry;
  }

  /** Keeps `entry` as the reading of `path`, dropping the least recently read paths past the bound. */
  set(path: string, entry: FileEntry): void {
    this.delete(path);
    if (entry.chars > this.maxChars) return;
    for (const [oldest, old] of this.#files) {
      if (this.#chars + entry.chars <= this.maxChars) break;
      this.#files.delete(oldest);
      this.#chars -= old.chars;
    }
    this.#files.set(path, entry);
    this.#chars += entry.chars;
  }

  delete(path: string): void {
    const old = this.#files.get(path);
    if (old === undefined) return;
    this.#files.delete(path);
    this.#chars -= old.chars;
  }

  /** Paths held and their characters. */
  get size(): { paths: number; chars: number } {
    return { paths: this.#files.size, chars: this.#chars };
  }
}

const counts: MarkdownReadCounts = emptyCounts();

function emptyCounts(): MarkdownReadCounts {
  return { full: 0, incremental: 0, partsParsed: 0, partsReused: 0, cutsUnconfirmed: 0, fallbacks: { "unsafe-split": 0, "definitions-changed": 0, "definitions-unwritable": 0, "mostly-changed": 0 } };
}

/** A copy of this thread's counts. */
export function markdownReadCounts(): MarkdownReadCounts {
  return { ...counts, fallbacks: { ...counts.fallbacks } };
}

/** Sets this thread's counts back to zero (tests and benchmarks measure from a known start). */
export function resetMarkdownReadCounts(): void {
  Object.assign(counts, emptyCounts());
}

/**
 * Cuts that may be refused in one reading (joins) before it parses the
 * whole document instead; a first reading remembers as many refused cuts.
 */
const MAX_UNCONFIRMED = 4;

/**
 * One part of the document as cut: its text, where it starts, and the
 * heading lines after it (the probe). Parts hold their text, which slices
 * the document; a join makes one string of two.
 */
interface Part {
  readonly text: string;
  /** Offset of the part in the document. */
  readonly offset: number;
  /** 1-based line of the part's first line. */
  readonly line: number;
  /** The lines of the heading that starts the next part ("" for the last part). */
  readonly probe: string;
  /** Lines of that heading (1 or 2; 0 for the last part). */
  readonly probeLines: number;
  /** 1-based line of that heading (the line after the part's last line). */
  readonly probeLine: number;
}

/** End of the line `lines` lines on from `offset`, its line feed included. */
function endOfLines(source: string, offset: number, lines: number): number {
  let at = offset;
  for (let i = 0; i < lines; i++) {
    const lf = source.indexOf("\n", at);
    if (lf < 0) return source.length;
    at = lf + 1;
  }
  return at;
}

function cutParts(source: string, starts: readonly BlockStart[]): Part[] {
  const parts: Part[] = [];
  let offset = 0;
  let line = 1;
  for (const start of starts) {
    const probeEnd = endOfLines(source, start.offset, start.headingLines);
    const text = source.slice(offset, start.offset);
    parts.push({ text, offset, line, probe: source.slice(start.offset, probeEnd), probeLines: start.headingLines, probeLine: start.line });
    offset = start.offset;
    line = start.line;
  }
  parts.push({ text: source.slice(offset), offset, line, probe: "", probeLines: 0, probeLine: 0 });
  return parts;
}

/** A part and the part after it as one (the cut between them was not confirmed), sliced from `source`. */
function joined(source: string, a: Part, b: Part): Part {
  const text = source.slice(a.offset, b.offset + b.text.length);
  return { text, offset: a.offset, line: a.line, probe: b.probe, probeLines: b.probeLines, probeLine: b.probeLine };
}

function partName(part: Part, definitions: Definitions): string {
  return createHash("sha256").update(part.text).update("\0").update(part.probe).update("\0").update(definitions.key).digest("base64url");
}

function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

/** The link and footnote labels defined in `nodes` (their subtrees included), unsorted. */
function definedIn(nodes: readonly MarkdownBlock[], links: string[], footnotes: string[]): void {
  const stack: MarkdownBlock[] = [...nodes];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === "definition") links.push(node.label);
    else if (node.type === "footnoteDefinition") footnotes.push(node.label);
    if ("children" in node) for (const child of (node as ContainerBlock).children) stack.push(child);
  }
}

const sortedUnique = (values: readonly string[]): string[] => [...new Set(values)].sort();

function definitionsOf(links: readonly string[], footnotes: readonly string[]): Definitions {
  const l = sortedUnique(links);
  const f = sortedUnique(footnotes);
  const key = l.length + f.length === 0 ? "" : createHash("sha256").update(JSON.stringify([l, f])).digest("base64url");
  return { links: l, footnotes: f, key };
}

const sameLabels = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The definitions written as Markdown, one a line, then a blank line ("" when there are none). */
function definitionText(definitions: Definitions): string {
  if (definitions.key === "") return "";
  const lines = [...definitions.links.map((id) => `[${id}]: #`), ...definitions.footnotes.map((id) => `[^${id}]: x`)];
  return `${lines.join("\n")}\n\n`;
}

/** Whether each set of definitions seen (by key) reads back as itself; cleared when it grows past a few hundred. */
const writable = new Map<string, boolean>();

/** Whether the parser reads exactly `definitions` from their written form, and nothing else. */
function definitionsWritable(definitions: Definitions): boolean {
  let known = writable.get(definitions.key);
  if (known === undefined) {
    if (writable.size >= 256) writable.clear();
    known = readsBack(definitions);
    writable.set(definitions.key, known);
  }
  return known;
}

function readsBack(definitions: Definitions): boolean {
  const text = definitionText(definitions);
  if (text === "") return true;
  const tree = parseMarkdown(text);
  const links: string[] = [];
  const footnotes: string[] = [];
  definedIn(tree.children, links, footnotes);
  const onlyDefinitions = tree.children.every((n) => n.type === "definition" || n.type === "footnoteDefinition");
  const parsed = definitionsOf(links, footnotes);
  return onlyDefinitions && links.length + footnotes.length === definitions.links.length + definitions.footnotes.length && parsed.key === definitions.key;
}

/**
 * Parses one part with the heading after it and the document's definitions
 * beside it: before the part when it starts with its own heading, after the
 * heading that follows it when it is the document's start (front matter
 * must stay on line 1). Answers "unconfirmed" when that heading does not come
 * out as a top-level node on its own lines.
 */
function parsePart(part: Part, definitions: Definitions): Cached {
  const written = definitionText(definitions);
  const first = part.offset === 0;
  const before = first ? "" : written;
  // The whole document (a first part joined up to the end) defines its own labels.
  const after = first && part.probe !== "" && written !== "" ? `${part.probe.endsWith("\n") ? "" : "\n"}\n${written}` : "";
  const input = before + part.text + part.probe + after;
  const tree = parseMarkdown(input);
  // Lines, 0-based: the part's first, the probe's first (the part ends with a line feed when a probe follows).
  const shift = countLines(before);
  const probeLine = shift + part.probeLine - part.line;
  const own: MarkdownBlock[] = [];
  let probeNode: MarkdownBlock | undefined;
  let afterProbe = false;
  for (const node of tree.children) {
    if (node.start < shift) continue;
    if (node.start < probeLine || part.probe === "") own.push(node);
    else if (node.start === probeLine && probeNode === undefined) probeNode = node;
    else if (node.start < probeLine + part.probeLines) afterProbe = true;
  }
  if (part.probe !== "") {
    const confirmed = probeNode?.type === "heading" && !afterProbe && probeNode.end === probeLine + part.probeLines;
    if (!confirmed) return "unconfirmed";
  }
  return readingOf(own, tree, input, shift, part.text.includes("]:"));
}

function readingOf(nodes: readonly MarkdownBlock[], tree: MarkdownTree, input: string, lineShift: number, mayDefine: boolean): PartReading {
  const items: MarkdownItem[] = [];
  for (const node of nodes) {
    const item = itemOf(node, tree, input, lineShift);
    if (item !== undefined) items.push(item);
  }
  const links: string[] = [];
  const footnotes: string[] = [];
  // A definition holds `]:` in the part's own text; without one there is nothing to look for.
  if (mayDefine) definedIn(nodes, links, footnotes);
  return { items, links: sortedUnique(links), footnotes: sortedUnique(footnotes) };
}

/**
 * Parses the whole document, and, given a cache, keeps its parts for the
 * next reading: a cut is confirmed when a top-level heading of the tree
 * starts on the cut's line and spans the lines the scan gave it.
 */
function readWhole(source: string, path: string, cache: MarkdownPartCache | undefined): ReadOutput {
  counts.full++;
  const tree = parseMarkdown(source);
  const builder = new DocumentBuilder();
  if (cache === undefined) replayItems(builder, readingOf(tree.children, tree, source, 0, false).items, 0);
  else cache.set(path, replayParts(tree, source, builder));
  return builder.finish();
}

/** Replays the parsed document part by part into `builder`, and answers the parts to keep for the next reading. */
function replayParts(tree: MarkdownTree, source: string, builder: DocumentBuilder): FileEntry {
  const links: string[] = [];
  const footnotes: string[] = [];
  if (source.includes("]:")) definedIn(tree.children, links, footnotes);
  const definitions = definitionsOf(links, footnotes);
  const byLine = new Map<number, MarkdownBlock>();
  for (const node of tree.children) if (!byLine.has(node.start)) byLine.set(node.start, node);
  const parts = new Map<string, Cached>();
  let pending: Part | undefined;
  let unconfirmed = 0;
  let nodeIndex = 0;
  // `end`: the 0-based line the next part starts on.
  const take = (part: Part, end: number) => {
    const nodes: MarkdownBlock[] = [];
    for (; nodeIndex < tree.children.length; nodeIndex++) {
      const node = tree.children[nodeIndex]!;
      if (node.start >= end) break;
      nodes.push(node);
    }
    const reading = readingOf(nodes, tree, source, part.line - 1, part.text.includes("]:"));
    parts.set(partName(part, definitions), reading);
    replayItems(builder, reading.items, part.line - 1);
  };
  for (const part of cutParts(source, blockStarts(source))) {
    const whole = pending === undefined ? part : joined(source, pending, part);
    if (whole.probe === "") {
      take(whole, Number.POSITIVE_INFINITY);
      break;
    }
    const line = whole.probeLine - 1;
    const heading = byLine.get(line);
    const confirmed = heading?.type === "heading" && heading.end === line + whole.probeLines;
    if (confirmed) {
      take(whole, line);
      pending = undefined;
    } else {
      // Remembered so the next reading joins without parsing; past the few a re-reading tolerates, not worth hashing.
      if (++unconfirmed <= MAX_UNCONFIRMED) parts.set(partName(whole, definitions), "unconfirmed");
      pending = whole;
    }
  }
  return { definitions, parts, chars: source.length };
}

/**
 * Parses the whole document although a previous reading was at hand. A
 * document that mostly changed is only counted; the other reasons are
 * logged too, since they say a cut or the definitions could not be used.
 */
function fallBack(reason: FallbackReason, source: string, path: string, cache: MarkdownPartCache): ReadOutput {
  counts.fallbacks[reason]++;
  if (reason !== "mostly-changed") log.info("markdown document read whole", { path, reason });
  return readWhole(source, path, cache);
}

/**
 * The reading of Markdown `source` (LF line endings) at `path`: from the
 * parts of the previous reading of `path` in `cache` where their text is
 * unchanged, parsing only the rest; the whole document when `cache` holds
 * no reading of `path` (or is not given). The output is the one a parse of
 * the whole document gives, whatever the cache holds.
 */
export function readMarkdownSource(source: string, path: string, cache?: MarkdownPartCache): ReadOutput {
  const previous = cache?.get(path);
  if (cache === undefined || previous === undefined) return readWhole(source, path, cache);
  const definitions = previous.definitions;
  if (!definitionsWritable(definitions)) return fallBack("definitions-unwritable", source, path, cache);
  const parts = cutParts(source, blockStarts(source));
  if (parts.length === 1) return readWhole(source, path, cache);
  const names = parts.map((part) => partName(part, definitions));
  let estimate = 0;
  parts.forEach((part, i) => {
    if (!previous.parts.has(names[i]!)) estimate += part.text.length + cache.parseSetupChars;
  });
  if (estimate > source.length) return fallBack("mostly-changed", source, path, cache);
  const reuse = reuseParts(source, parts, names, previous, cache);
  if (reuse === undefined) return fallBack("unsafe-split", source, path, cache);
  const now = definitionsOf(
    reuse.readings.flatMap(({ reading }) => reading.links),
    reuse.readings.flatMap(({ reading }) => reading.footnotes),
  );
  if (!sameLabels(now.links, definitions.links) || !sameLabels(now.footnotes, definitions.footnotes)) {
    return fallBack("definitions-changed", source, path, cache);
  }
  counts.incremental++;
  counts.partsParsed += reuse.parsed;
  counts.partsReused += reuse.reused;
  counts.cutsUnconfirmed += reuse.joins;
  const builder = new DocumentBuilder();
  for (const { part, reading } of reuse.readings) replayItems(builder, reading.items, part.line - 1);
  cache.set(path, { definitions, parts: reuse.kept, chars: source.length });
  return builder.finish();
}

/** What a reading from the previous one's parts kept and parsed (see `reuseParts`). */
interface PartReuse {
  readonly readings: Array<{ part: Part; reading: PartReading }>;
  readonly kept: Map<string, Cached>;
  readonly joins: number;
  readonly parsed: number;
  readonly reused: number;
}

/**
 * Each part's reading: the previous reading's where its text is unchanged,
 * else a parse of it; an unconfirmed cut joins its part to the next.
 * Undefined when joins pass the few a re-reading tolerates, or cost twice
 * the document: one parse of it all is cheaper then.
 */
function reuseParts(source: string, parts: readonly Part[], names: readonly string[], previous: FileEntry, cache: MarkdownPartCache): PartReuse | undefined {
  const readings: PartReuse["readings"] = [];
  const kept = new Map<string, Cached>();
  let joins = 0;
  let parsed = 0;
  let reused = 0;
  let spent = 0;
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i]!;
    let name = names[i]!;
    for (;;) {
      let reading = kept.get(name) ?? previous.parts.get(name);
      if (reading === undefined) {
        reading = parsePart(part, previous.definitions);
        parsed++;
        spent += part.text.length + cache.parseSetupChars;
      } else if (reading !== "unconfirmed") reused++;
      kept.set(name, reading);
      if (reading !== "unconfirmed") {
        readings.push({ part, reading });
        break;
      }
      // Joins re-hash and re-parse text.
      if (++joins > MAX_UNCONFIRMED || spent > 2 * source.length) return undefined;
      // The last part has no heading after it to confirm, so a join always ends.
      part = joined(source, part, parts[++i]!);
      name = partName(part, previous.definitions);
    }
  }
  return { readings, kept, joins, parsed, reused };
}
