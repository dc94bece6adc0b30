/**
 * Instances read back from stored factions and cells: the things of a
 * project that may be of one type — a Markdown section with `Key: value`
 * lines or sub-headings, a document's front matter, a CSV/TSV or JSON Lines
 * row, an object among like objects of a configuration file. Pure: what
 * the readers stored in, {@link Instance}s out, with the cells each value
 * came from, so a proposal can cite them and filling can read them again.
 *
 * Only what the readers stored is read: headings by their paths, `Key:
 * value` claims by their text, table rows by their raw record, config
 * leaves by their "path.to.key: value" claims.
 */
import { eachRecord, guessDelimiter } from "../../readers/tables/delimited-records.js";
import type { Instance, InstanceValue, StoredCell, StoredFaction } from "../instance.js";
import { capitalise, keyOf, typeNameOf } from "./field-name.js";

/** Longest key of a `Key: value` claim, in characters. */
export const KEY_MAX_CHARS = 40;
/** Most words in a key of a `Key: value` claim. */
export const KEY_MAX_WORDS = 5;
/** A sub-heading's value is its first cell cut to about this many characters. */
export const SECTION_VALUE_MAX_CHARS = 300;
/** Fewest values that make a section (or front matter) an instance. */
export const MIN_SECTION_VALUES = 2;

const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdown", ".mkd", ".mkdn"];
const FRONT_MATTER_TYPES = new Set(["application/yaml", "application/toml"]);
const CONFIG_TYPES = new Set(["application/json", "application/yaml", "application/toml"]);
const DELIMITED_TYPES = new Set(["text/csv", "text/tab-separated-values"]);
const JSON_LINES_TYPE = "application/x-ndjson";
/** Factions whose cells may state `Key: value` pairs of a section. */
const KEY_VALUE_FACTIONS = new Set(["list", "text"]);
/** Front-matter keys that name the document's type rather than a field of it, tried in order. */
const FRONT_MATTER_TYPE_KEYS = ["type", "kind", "layout"];
/** Keys whose value names an object or row, tried in order. */
const NAME_KEYS = ["name", "title", "id", "key"];
/** Leaves of one JSON Lines record read at most, and its nesting followed. */
const MAX_RECORD_LEAVES = 200;
const MAX_RECORD_DEPTH = 6;

/**
 * `Key: value` with an optional bold key (`**Key**: value`, `**Key:**
 * value`, `__Key__: value`): the key starts with a letter and holds no
 * colon; the value follows after white space.
 */
const KEY_VALUE = /^(\*\*|__)?(\p{L}[^:\n]*?)\s*(?:\1)?:(?:\1)?\s+(\S[\s\S]*)$/u;

/**
 * A heading's type word(s) and its own title: "Incident: Payment outage",
 * "Runbook — Restart DB", "Postmortem - API down" split at the first
 * colon or spaced dash.
 */
const HEADING_SEPARATOR = /^(.{1,60}?)\s*(?::\s|\s[-–—]\s)\s*(\S.*)$/u;
/** A number or identifier closing a type word ("ADR 12", "ADR-0012", "RFC #7", "Issue no. 4"). */
const TRAILING_NUMBER = /(?:[\s#_\-–—]*(?:no\.?\s*)?#?\d[\p{L}\p{N}.\-]*)$/iu;
/** Words before a number: "Meeting notes 2026-03-02", "Sprint 14 review". */
const WORDS_BEFORE_NUMBER = /^(\p{L}[\p{L}\s'’-]*?)\s+(#?\d.*)$/u;
/** Most words of a type hint read from a heading. */
const HINT_MAX_WORDS = 3;

/** What a key is: short, at most five words, starting with a letter. */
export function isKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= KEY_MAX_CHARS &&
    /^\p{L}/u.test(key) &&
    !key.includes(":") &&
    key.split(/\s+/u).length <= KEY_MAX_WORDS
  );
}

/**
 * A claim's `Key: value` pair, markup of a bold key removed, or undefined
 * when the claim does not state one (see {@link isKey}).
 */
export function keyValueOf(text: string): { key: string; value: string } | undefined {
  const m = KEY_VALUE.exec(text.trim());
  if (m === null) return undefined;
  const key = (m[2] ?? "").replace(/^(\*\*|__)|(\*\*|__)$/gu, "").trim();
  const value = (m[3] ?? "").trim();
  if (!isKey(key) || value.length === 0) return undefined;
  return { key, value };
}

/** Whether `words` can be a type hint: 1–3 words of letters, the first at least two long ("Q" of "Q3: Goals" is none). */
function isHint(words: string): boolean {
  const parts = words.split(/\s+/u).filter((w) => w.length > 0);
  return (
    parts.length > 0 &&
    (parts[0] ?? "").length >= 2 &&
    parts.length <= HINT_MAX_WORDS &&
    words.length <= KEY_MAX_CHARS &&
    parts.every((w) => /^\p{L}[\p{L}'’-]*$/u.test(w))
  );
}

/**
 * The type hint and own title of a heading. The hint is the leading
 * word(s) — one to three words of letters — before the first colon or
 * spaced dash ("Incident: Payment outage" → "Incident", "Runbook — Restart
 * DB" → "Runbook"), a number or identifier before the separator dropped
 * ("ADR 12: Use libSQL" and "ADR-0012: …" → "ADR"); without a separator,
 * the words before a number ("Meeting notes 2026-03-02" → "Meeting notes",
 * "Sprint 14" → "Sprint"). The title is what follows. A heading with none
 * of these ("Timeline", "12. Use libSQL") has no hint and is its own
 * title. The hint is capitalised as written, not singularised: grouping
 * compares hints in their singular form.
 */
export function splitHeading(heading: string): { typeHint: string | undefined; title: string } {
  const text = heading.trim();
  const separated = HEADING_SEPARATOR.exec(text);
  if (separated !== null) {
    const word = (separated[1] ?? "").replace(TRAILING_NUMBER, "").trim();
    const rest = (separated[2] ?? "").trim();
    return isHint(word) ? { typeHint: capitalise(word), title: rest } : { typeHint: undefined, title: text };
  }
  const numbered = WORDS_BEFORE_NUMBER.exec(text);
  if (numbered !== null && isHint((numbered[1] ?? "").trim())) {
    return { typeHint: capitalise((numbered[1] ?? "").trim()), title: (numbered[2] ?? "").trim() };
  }
  return { typeHint: undefined, title: text };
}

/** The factions and cells of one file, in reading order. */
interface FileReading {
  fileId: string;
  path: string;
  factions: StoredFaction[];
  cellsOf: (faction: StoredFaction) => StoredCell[];
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every instance in the given factions and cells, which may come from any
 * number of files in any order: files are read in `fileId` order, each
 * file's factions by `ordinal` and each faction's cells by `ordinal`. Per
 * file, front matter comes first, then sections in document order, then
 * table rows, then config objects.
 *
 * - Section: a heading and what lies under it. Its values are the `Key:
 *   value` claims of list and text factions directly under the heading
 *   (not those of its sub-sections) and each direct sub-heading as a key
 *   whose value is the first claim under it, cut to about
 *   {@link SECTION_VALUE_MAX_CHARS} characters (its cells: every claim
 *   directly under the sub-heading). Type hint and title as
 *   {@link splitHeading} reads them. Sections with fewer than
 *   {@link MIN_SECTION_VALUES} values are left out: one pair is no shape.
 * - Front matter: the YAML/TOML `config` faction a Markdown file opens
 *   with; its `key: value` claims are the values. A `type`, `kind` or
 *   `layout` key gives the type hint ("post" → "Post") and is not a value;
 *   the title is the `title` or `name` value, else the file name.
 * - Table: one instance per CSV/TSV row (values by header; files without
 *   a header row have no keys and give none) or JSON Lines record (values
 *   by leaf path); type hint from the file name ("customers.csv" →
 *   "Customer"); title the first column's (or a `name`/`id` key's) value.
 * - Config: in a JSON/YAML/TOML file, the objects of an array or map whose
 *   objects repeat a key (`services: [{name, port}, …]`, `services: {api:
 *   {port}, web: {port}}`), one instance each, values its leaves by
 *   relative path; type hint the parent key singular ("services" →
 *   "Service"; a file that is itself a list takes its file name), title its
 *   `name`/`title`/`id`/`key` value or its map key.
 *
 * Within an instance a key stated twice keeps its first value.
 */
export function readInstances(factions: StoredFaction[], cells: StoredCell[]): Instance[] {
  const cellsByFaction = new Map<string, StoredCell[]>();
  for (const cell of cells) {
    const list = cellsByFaction.get(cell.factionId);
    if (list === undefined) cellsByFaction.set(cell.factionId, [cell]);
    else list.push(cell);
  }
  for (const list of cellsByFaction.values()) list.sort((a, b) => a.ordinal - b.ordinal || compareText(a.cellId, b.cellId));
  const cellsOf = (faction: StoredFaction): StoredCell[] => cellsByFaction.get(faction.factionId) ?? [];

  const files = new Map<string, StoredFaction[]>();
  for (const faction of factions) {
    const list = files.get(faction.fileId);
    if (list === undefined) files.set(faction.fileId, [faction]);
    else list.push(faction);
  }
  const out: Instance[] = [];
  for (const fileId of [...files.keys()].sort(compareText)) {
    const fileFactions = (files.get(fileId) ?? []).sort((a, b) => a.ordinal - b.ordinal || compareText(a.factionId, b.factionId));
    const reading: FileReading = { fileId, path: fileFactions[0]?.path ?? "", factions: fileFactions, cellsOf };
    out.push(...fileInstances(reading));
  }
  return out;
}

function fileInstances(file: FileReading): Instance[] {
  if (isDocument(file)) return [...frontMatterInstances(file), ...sectionInstances(file)];
  const out = [...sectionInstances(file), ...tableInstances(file)];
  if (file.factions.length > 0 && file.factions.every((f) => f.factionType === "config" && CONFIG_TYPES.has(f.inferredType))) {
    out.push(...configInstances(file));
  }
  return out;
}

/** A Markdown-like document: a Markdown file name, or prose blocks among its factions. */
function isDocument(file: FileReading): boolean {
  const lower = file.path.toLowerCase();
  return (
    MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext)) ||
    file.factions.some((f) => f.factionType === "heading" || f.factionType === "text" || f.factionType === "list")
  );
}

/** The file name without folders and its last extension ("data/customers.csv" → "customers"). */
function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Adds a value unless its key was stated already in this instance. */
function addValue(values: InstanceValue[], seen: Set<string>, value: InstanceValue): void {
  const key = keyOf(value.key);
  if (seen.has(key) || key.length === 0 || value.value.length === 0) return;
  seen.add(key);
  values.push(value);
}

// ---------------------------------------------------------------------------
// front matter

function frontMatterInstances(file: FileReading): Instance[] {
  const first = file.factions[0];
  if (first === undefined || first.factionType !== "config" || !FRONT_MATTER_TYPES.has(first.inferredType)) return [];
  const pairs: InstanceValue[] = [];
  const seen = new Set<string>();
  for (const cell of file.cellsOf(first)) {
    const at = cell.text.indexOf(": ");
    if (at <= 0) continue;
    const key = cell.text.slice(0, at).trim();
    if (!isKey(key)) continue;
    addValue(pairs, seen, { key, value: cell.text.slice(at + 2).trim(), cellIds: [cell.cellId] });
  }
  const typeKey = FRONT_MATTER_TYPE_KEYS.find((k) => pairs.some((p) => keyOf(p.key) === k));
  const typePair = pairs.find((p) => keyOf(p.key) === typeKey);
  const values = pairs.filter((p) => p !== typePair);
  if (values.length < MIN_SECTION_VALUES) return [];
  const named = NAME_KEYS.slice(0, 2).map((k) => pairs.find((p) => keyOf(p.key) === k)).find((p) => p !== undefined);
  return [
    {
      source: "front-matter",
      typeHint: typePair === undefined ? undefined : typeNameOf(typePair.value),
      title: named?.value ?? fileStem(file.path),
      fileId: file.fileId,
      factionIds: [first.factionId],
      values,
    },
  ];
}

// ---------------------------------------------------------------------------
// sections

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return path.length >= prefix.length && prefix.every((p, i) => path[i] === p);
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** A heading's text as the reader stored it: its cell, else its source without `#` marks. */
function headingTitle(file: FileReading, heading: StoredFaction): string {
  const cell = file.cellsOf(heading)[0];
  if (cell !== undefined) return cell.text.trim();
  return heading.text.replace(/^\s*#{1,6}\s*|\s*#*\s*$/gu, "").trim();
}

/** The factions after `at` that sit under the heading at `at` (its sub-sections included). */
function sectionBody(factions: readonly StoredFaction[], at: number, inner: readonly string[]): StoredFaction[] {
  const body: StoredFaction[] = [];
  for (let i = at + 1; i < factions.length; i++) {
    const f = factions[i] as StoredFaction;
    if (!startsWith(f.headingPath, inner)) break;
    body.push(f);
  }
  return body;
}

/** Cut to about `max` characters at a space, marked with "…". */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(" ", max);
  return `${text.slice(0, cut > max / 2 ? cut : max).trimEnd()}…`;
}

/** A sub-heading as a key: its title, and the claims directly under it. */
function subHeadingValue(file: FileReading, body: readonly StoredFaction[], at: number, inner: readonly string[]): InstanceValue | undefined {
  const heading = body[at] as StoredFaction;
  const key = headingTitle(file, heading);
  if (!isKey(key)) return undefined;
  const subInner = [...inner, key];
  const under: StoredCell[] = [];
  for (let i = at + 1; i < body.length; i++) {
    const f = body[i] as StoredFaction;
    if (!startsWith(f.headingPath, subInner)) break;
    if (f.factionType !== "heading" && samePath(f.headingPath, subInner)) under.push(...file.cellsOf(f));
  }
  const first = under[0];
  if (first === undefined) return undefined;
  return { key, value: shorten(first.text.trim(), SECTION_VALUE_MAX_CHARS), cellIds: under.map((c) => c.cellId) };
}

/**
 * The `Key: value` claims of a list or text faction. A sentence's closing
 * period is not part of its value. A paragraph whose every line is a `Key:
 * value` pair ("Region: EMEA⏎Tier: gold") states one pair a line, though
 * its soft line breaks joined them into one claim ("Region: EMEA Tier:
 * gold"): its lines are read from the faction's source.
 */
function claimedValues(file: FileReading, faction: StoredFaction): InstanceValue[] {
  if (!KEY_VALUE_FACTIONS.has(faction.factionType)) return [];
  const lines = faction.factionType === "text" ? linePairs(file, faction) : undefined;
  if (lines !== undefined) return lines;
  return file.cellsOf(faction).flatMap((cell) => {
    const pair = keyValueOf(cell.text);
    if (pair === undefined) return [];
    const value = faction.factionType === "text" ? pair.value.replace(/(?<!\.)\.$/u, "").trim() : pair.value;
    return [{ key: pair.key, value, cellIds: [cell.cellId] }];
  });
}

/**
 * One pair per source line of a paragraph of two or more lines that are all
 * `Key: value` pairs, each citing the claim it lies in; undefined for any
 * other paragraph. Markup a line's value carries is read as the claims are.
 */
function linePairs(file: FileReading, faction: StoredFaction): InstanceValue[] | undefined {
  const lines = faction.text.split(/\r?\n/u).map((l) => l.trim()).filter((l) => l !== "");
  if (lines.length < 2) return undefined;
  const pairs = lines.map(keyValueOf);
  if (pairs.some((p) => p === undefined)) return undefined;
  const cells = file.cellsOf(faction);
  return (pairs as Array<{ key: string; value: string }>).map(({ key, value }) => {
    const plain = value.replace(/(?<!\.)\.$/u, "").trim();
    const cell = cells.find((c) => c.text.includes(plain)) ?? cells[0];
    return { key, value: plain, cellIds: cell === undefined ? [] : [cell.cellId] };
  });
}

function sectionInstances(file: FileReading): Instance[] {
  const out: Instance[] = [];
  file.factions.forEach((heading, at) => {
    if (heading.factionType !== "heading") return;
    const text = headingTitle(file, heading);
    if (text.length === 0) return;
    const inner = [...heading.headingPath, text];
    const body = sectionBody(file.factions, at, inner);
    const values: InstanceValue[] = [];
    const seen = new Set<string>();
    body.forEach((f, i) => {
      if (!samePath(f.headingPath, inner)) return;
      if (f.factionType === "heading") {
        const value = subHeadingValue(file, body, i, inner);
        if (value !== undefined) addValue(values, seen, value);
      } else {
        for (const value of claimedValues(file, f)) addValue(values, seen, value);
      }
    });
    if (values.length < MIN_SECTION_VALUES) return;
    const { typeHint, title } = splitHeading(text);
    out.push({
      source: "section",
      typeHint,
      title,
      fileId: file.fileId,
      factionIds: [heading.factionId, ...body.map((f) => f.factionId)],
      values,
    });
  });
  return out;
}

// ---------------------------------------------------------------------------
// tables

function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** The fields of one delimited record as the CSV reader parsed it. */
function recordFields(text: string, delimiter: string): string[] {
  let fields: string[] = [];
  eachRecord(text, delimiter, (record) => {
    if (fields.length === 0) fields = record.fields;
  });
  return fields;
}

function titleOf(values: readonly InstanceValue[], fallback: string): string {
  for (const name of NAME_KEYS) {
    const hit = values.find((v) => keyOf(v.key) === name);
    if (hit !== undefined) return hit.value;
  }
  return fallback;
}

function tableInstances(file: FileReading): Instance[] {
  const out: Instance[] = [];
  const typeHint = typeNameOf(fileStem(file.path));
  file.factions.forEach((table, at) => {
    if (table.factionType !== "table") return;
    const rows: StoredFaction[] = [];
    for (let i = at + 1; i < file.factions.length && file.factions[i]?.factionType === "row"; i++) rows.push(file.factions[i] as StoredFaction);
    if (DELIMITED_TYPES.has(table.inferredType)) out.push(...delimitedRows(file, table, rows, typeHint));
    else if (table.inferredType === JSON_LINES_TYPE) out.push(...jsonLinesRows(file, rows, typeHint));
  });
  return out;
}

/**
 * CSV/TSV rows by header. The table faction's text is the header line
 * when the reader found one; when it found none, that text is the first
 * record's, and the rows have no keys.
 */
function delimitedRows(file: FileReading, table: StoredFaction, rows: StoredFaction[], typeHint: string | undefined): Instance[] {
  if (rows.length === 0 || rows[0]?.text === table.text) return [];
  const delimiter = table.inferredType === "text/tab-separated-values" ? "\t" : guessDelimiter(table.text);
  const header = recordFields(table.text, delimiter).map(collapse);
  return rows.flatMap((row, n): Instance[] => {
    const cellIds = file.cellsOf(row).map((c) => c.cellId);
    if (cellIds.length === 0) return [];
    const fields = recordFields(row.text, delimiter).map(collapse);
    const values: InstanceValue[] = [];
    const seen = new Set<string>();
    fields.forEach((value, i) => {
      const key = header[i] ?? "";
      if (key.length > 0) addValue(values, seen, { key, value, cellIds });
    });
    if (values.length === 0) return [];
    const title = fields[0] !== undefined && fields[0].length > 0 ? fields[0] : `${fileStem(file.path)} row ${n + 1}`;
    return [{ source: "table", typeHint, title, fileId: file.fileId, factionIds: [row.factionId], values }];
  });
}

/** JSON Lines records by leaf path ("id", "user.name", "tags" with its items joined). */
function jsonLinesRows(file: FileReading, rows: StoredFaction[], typeHint: string | undefined): Instance[] {
  return rows.flatMap((row, n): Instance[] => {
    const cellIds = file.cellsOf(row).map((c) => c.cellId);
    if (cellIds.length === 0) return [];
    let record: unknown;
    try {
      record = JSON.parse(row.text);
    } catch {
      return [];
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) return [];
    const values: InstanceValue[] = [];
    const seen = new Set<string>();
    for (const [key, value] of recordLeaves(record, "", 0, [])) addValue(values, seen, { key, value, cellIds });
    if (values.length === 0) return [];
    const title = titleOf(values, values[0]?.value ?? `${fileStem(file.path)} record ${n + 1}`);
    return [{ source: "table", typeHint, title, fileId: file.fileId, factionIds: [row.factionId], values }];
  });
}

function scalarText(value: unknown): string | undefined {
  if (value === null) return "";
  if (typeof value === "string") return collapse(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function recordLeaves(value: unknown, path: string, depth: number, out: [string, string][]): [string, string][] {
  if (out.length >= MAX_RECORD_LEAVES || depth > MAX_RECORD_DEPTH) return out;
  const scalar = scalarText(value);
  if (scalar !== undefined) {
    if (path.length > 0) out.push([path, scalar]);
  } else if (Array.isArray(value)) {
    const items = value.map(scalarText);
    if (path.length > 0 && items.every((i) => i !== undefined)) out.push([path, items.filter((i) => i !== "").join(", ")]);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) recordLeaves(child, path.length === 0 ? key : `${path}.${key}`, depth + 1, out);
  }
  return out;
}

// ---------------------------------------------------------------------------
// config

type Segment = string | number;

const BARE = String.raw`[^.\s\[\]"]+`;
const QUOTED = String.raw`\["(?:[^"\\]|\\.)*"\]`;
const INDEX = String.raw`\[\d+\]`;
const DATA_PATH = new RegExp(`^(?:${BARE}|${QUOTED}|${INDEX})(?:\\.${BARE}|${QUOTED}|${INDEX})*$`, "u");
const PATH_SEGMENT = new RegExp(`(?:^|\\.)(${BARE})|(${QUOTED})|\\[(\\d+)\\]`, "gu");

/**
 * A config claim read back: "services[0].port: 8080" → `["services", 0,
 * "port"]` and "8080", `["a.b"]` keys unquoted. The path ends at the first
 * ": " before which the text is a whole path (bare keys may hold colons).
 * Claims without a path (a document that is one scalar) give undefined.
 */
export function parseDataClaim(text: string): { path: Segment[]; value: string } | undefined {
  for (let at = text.indexOf(": "); at > 0; at = text.indexOf(": ", at + 1)) {
    const head = text.slice(0, at);
    if (!DATA_PATH.test(head)) continue;
    const path: Segment[] = [];
    for (const m of head.matchAll(PATH_SEGMENT)) {
      if (m[1] !== undefined) path.push(m[1]);
      else if (m[2] !== undefined) path.push(JSON.parse(m[2].slice(1, -1)) as string);
      else path.push(Number(m[3]));
    }
    return { path, value: text.slice(at + 2).trim() };
  }
  return undefined;
}

/** A path as the config reader renders one: `a.b[0]`, `["x.y"]` for keys with dots or spaces. */
function renderPath(path: readonly Segment[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (part.length === 0 || /[.\s[\]"]/u.test(part)) out += `[${JSON.stringify(part)}]`;
    else out += out.length === 0 ? part : `.${part}`;
  }
  return out;
}

interface Leaf {
  /** Documents of a YAML stream share paths; a repeated path starts the next. */
  document: number;
  path: Segment[];
  value: string;
  cellId: string;
  factionId: string;
}

interface Child {
  segment: Segment;
  /** A scalar leaf at the child itself, so not an object. */
  scalar: boolean;
  leaves: { rel: Segment[]; leaf: Leaf }[];
}

interface Container {
  document: number;
  path: Segment[];
  children: Map<string, Child>;
}

function configLeaves(file: FileReading): Leaf[] {
  const leaves: Leaf[] = [];
  let document = 0;
  let seen = new Set<string>();
  for (const faction of file.factions) {
    for (const cell of file.cellsOf(faction)) {
      const claim = parseDataClaim(cell.text);
      if (claim === undefined) continue;
      const at = JSON.stringify(claim.path);
      if (seen.has(at)) {
        document++;
        seen = new Set();
      }
      seen.add(at);
      leaves.push({ document, path: claim.path, value: claim.value, cellId: cell.cellId, factionId: faction.factionId });
    }
  }
  return leaves;
}

/** Every container path with its children, in order of first appearance. */
function containersOf(leaves: readonly Leaf[]): Container[] {
  const containers = new Map<string, Container>();
  for (const leaf of leaves) {
    for (let p = 0; p < leaf.path.length; p++) {
      const path = leaf.path.slice(0, p);
      const id = JSON.stringify([leaf.document, path]);
      let container = containers.get(id);
      if (container === undefined) {
        container = { document: leaf.document, path, children: new Map() };
        containers.set(id, container);
      }
      const segment = leaf.path[p] as Segment;
      const childId = JSON.stringify(segment);
      let child = container.children.get(childId);
      if (child === undefined) {
        child = { segment, scalar: false, leaves: [] };
        container.children.set(childId, child);
      }
      if (p === leaf.path.length - 1) child.scalar = true;
      else child.leaves.push({ rel: leaf.path.slice(p + 1), leaf });
    }
  }
  return [...containers.values()];
}

/** Objects of a container that repeat a key: at least two, and some key stated by two of them. */
function repeatedObjects(container: Container): Child[] {
  const objects = [...container.children.values()].filter((c) => !c.scalar && c.leaves.length > 0);
  if (objects.length < 2) return [];
  const counts = new Map<string, number>();
  for (const child of objects) {
    for (const key of new Set(child.leaves.map((l) => renderPath(l.rel)))) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.values()].some((n) => n >= 2) ? objects : [];
}

function configTypeHint(file: FileReading, container: Container, objects: readonly Child[]): string | undefined {
  const named = container.path.filter((s): s is string => typeof s === "string").at(-1);
  if (named !== undefined) return typeNameOf(named);
  return objects.every((o) => typeof o.segment === "number") ? typeNameOf(fileStem(file.path)) : undefined;
}

function configInstances(file: FileReading): Instance[] {
  const out: { order: number; instance: Instance }[] = [];
  const leaves = configLeaves(file);
  const order = new Map(leaves.map((l, i) => [l.cellId, i]));
  for (const container of containersOf(leaves)) {
    const objects = repeatedObjects(container);
    if (objects.length === 0) continue;
    const typeHint = configTypeHint(file, container, objects);
    for (const child of objects) {
      const values: InstanceValue[] = [];
      const seen = new Set<string>();
      for (const { rel, leaf } of child.leaves) addValue(values, seen, { key: renderPath(rel), value: leaf.value, cellIds: [leaf.cellId] });
      if (values.length === 0) continue;
      const fallback = typeof child.segment === "string" ? child.segment : renderPath([...container.path, child.segment]);
      const factionIds = [...new Set(child.leaves.map((l) => l.leaf.factionId))];
      out.push({
        order: order.get(child.leaves[0]?.leaf.cellId ?? "") ?? 0,
        instance: { source: "config", typeHint, title: titleOf(values, fallback), fileId: file.fileId, factionIds, values },
      });
    }
  }
  return out.sort((a, b) => a.order - b.order).map((o) => o.instance);
}
