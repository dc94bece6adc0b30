/**
 * JSON, YAML and TOML parsed into one shape: the documents of a file (YAML
 * may hold several), each with its value and its top-level entries (keys
 * of a mapping, elements of a sequence, TOML tables) located in the
 * source. Text that does not parse yields undefined; text nesting past
 * the cap is refused before any parser sees it.
 */
import { parse as parseToml } from "smol-toml";
import { isMap, isScalar, isSeq, parseAllDocuments } from "yaml";
import type { Document } from "yaml";
import type { DataPath } from "./config-claims.js";
import { checkJsonNesting, checkTomlNesting } from "./config-nesting.js";
import { blankJsonComments, jsonMembers } from "./json-source.js";
import { tomlSections } from "./toml-sections.js";
import type { TomlSection } from "./toml-sections.js";
import { checkYamlNesting } from "./yaml-nesting.js";

export type ConfigFormat = "json" | "yaml" | "toml";

/** A located value: `[start, end)` in the source, and the path its claims start from. */
export interface ConfigPart {
  start: number;
  end: number;
  value: unknown;
  path: DataPath;
}

/** One document: the whole of it, and its top-level entries. */
export interface ConfigDocument extends ConfigPart {
  entries: ConfigPart[];
}

/** YAML aliases expanded beyond this count are refused (the "billion laughs" guard). */
const MAX_YAML_ALIASES = 100;

function memberOf(container: unknown, key: string | number): unknown {
  if (container === null || typeof container !== "object") return undefined;
  return Object.hasOwn(container, key) ? (container as Record<string | number, unknown>)[key] : undefined;
}

function trimmedRange(text: string): [number, number] {
  const start = Math.max(0, text.search(/\S/));
  return [start, text.trimEnd().length];
}

function jsonDocuments(text: string): ConfigDocument[] | undefined {
  const clean = blankJsonComments(text);
  checkJsonNesting(clean);
  let value: unknown;
  try {
    value = JSON.parse(clean);
  } catch {
    return undefined;
  }
  const entries = jsonMembers(clean).map((m, i): ConfigPart => {
    const key = m.key ?? i;
    return { start: m.start, end: m.end, value: memberOf(value, key), path: [key] };
  });
  const [start, end] = trimmedRange(text);
  return [{ start, end, value, path: [], entries }];
}

function yamlEntries(doc: Document.Parsed, value: unknown): ConfigPart[] {
  const { contents } = doc;
  if (isMap(contents)) {
    return contents.items.flatMap((pair): ConfigPart[] => {
      if (!isScalar(pair.key) || pair.key.range == null) return [];
      const key = String(pair.key.value);
      const end = pair.value?.range?.[1] ?? pair.key.range[1];
      return [{ start: pair.key.range[0], end, value: memberOf(value, key), path: [key] }];
    });
  }
  if (isSeq(contents)) {
    return contents.items.flatMap((item, i): ConfigPart[] =>
      item.range == null ? [] : [{ start: item.range[0], end: item.range[1], value: memberOf(value, i), path: [i] }],
    );
  }
  return [];
}

function yamlDocuments(text: string): ConfigDocument[] | undefined {
  checkYamlNesting(text);
  try {
    const out: ConfigDocument[] = [];
    for (const doc of parseAllDocuments(text, { merge: true, uniqueKeys: false })) {
      if (doc.errors.length > 0) return undefined;
      const range = doc.contents?.range;
      if (range == null) continue;
      const value: unknown = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
      out.push({ start: range[0], end: range[1], value, path: [], entries: yamlEntries(doc, value) });
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Resolves a header's keys to a path with array indexes: `[[bin]]` is the
 * next element of `bin`, and a header under an array of tables
 * (`[[bin.targets]]`, `[bin.meta]`) belongs to that array's last element.
 */
function headerPath(section: TomlSection, lastIndex: Map<string, number>): DataPath {
  const keys = section.keys ?? [];
  const path: (string | number)[] = [];
  keys.forEach((key, i) => {
    path.push(key);
    const at = JSON.stringify(path);
    if (i === keys.length - 1 && section.array === true) {
      const next = (lastIndex.get(at) ?? -1) + 1;
      lastIndex.set(at, next);
      path.push(next);
    } else if (lastIndex.has(at)) {
      path.push(lastIndex.get(at) ?? 0);
    }
  });
  return path;
}

/** The value a section defines, read from the section parsed on its own. */
function sectionValue(text: string, section: TomlSection): unknown {
  let value: unknown = parseToml(text.slice(section.start, section.end));
  for (const key of section.keys ?? []) value = memberOf(value, key);
  return section.array === true && Array.isArray(value) ? value[0] : value;
}

function tomlDocuments(text: string): ConfigDocument[] | undefined {
  checkTomlNesting(text);
  let value: unknown;
  try {
    value = parseToml(text);
  } catch {
    return undefined;
  }
  const lastIndex = new Map<string, number>();
  const entries = tomlSections(text).map((section): ConfigPart => {
    const path = headerPath(section, lastIndex);
    let part: unknown;
    try {
      part = sectionValue(text, section);
    } catch {
      part = undefined;
    }
    return { start: section.start, end: section.end, value: part, path };
  });
  const [start, end] = trimmedRange(text);
  return [{ start, end, value, path: [], entries }];
}

/**
 * The documents of `text` read as `format`, or undefined when it does not
 * parse. Throws "document nests deeper than N levels" past
 * `MAX_CONFIG_NESTING`, checked before parsing.
 */
export function configDocuments(text: string, format: ConfigFormat): ConfigDocument[] | undefined {
  if (format === "json") return jsonDocuments(text);
  if (format === "yaml") return yamlDocuments(text);
  return tomlDocuments(text);
}
