/**
 * Configuration files: JSON (comments and trailing commas allowed, as in
 * `tsconfig.json`), YAML (every document of a stream) and TOML. A small
 * file is one `config` faction per document; a larger one has a faction
 * per top-level entry (mapping key, sequence element, TOML table), so an
 * edit re-derives only the entry it touches. Cells are "path.to.key:
 * value" per scalar leaf. Text that does not parse keeps one faction for
 * the whole file and yields no cells: half-parsed configuration would make
 * wrong claims. Lockfiles are generated from a manifest and yield nothing.
 * Text nesting deeper than `MAX_CONFIG_NESTING` (128) is refused before
 * parsing, and so is text that decodes to noise.
 */
import type { ClaimBudget } from "./config-claims.js";
import { leafClaims } from "./config-claims.js";
import type { ConfigFormat, ConfigPart } from "./config-documents.js";
import { configDocuments } from "./config-documents.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { baseNameOf, extensionOf, mediaTypeOf } from "../common/file-kind.js";
import { LineIndex } from "../common/line-index.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";
import { lookupTable } from "../../lookup.js";

/** Files of at most this many lines are read as one faction per document. */
export const SMALL_CONFIG_LINES = 30;
/** Entries after this many factions are not read. */
export const MAX_CONFIG_FACTIONS = 5_000;
/** Leaves after this many cells (over the whole file) are not read. */
export const MAX_CONFIG_CELLS = 5_000;

const BY_EXTENSION = lookupTable<ConfigFormat>({
  ".json": "json", ".jsonc": "json", ".webmanifest": "json", ".jsonld": "json",
  ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
});
const BY_NAME = lookupTable<ConfigFormat>({
  ".babelrc": "json", ".eslintrc": "json", "cargo.lock": "toml", "poetry.lock": "toml", "uv.lock": "toml",
  "pipfile": "toml", "composer.lock": "json", "pipfile.lock": "json", "flake.lock": "json",
});
const BY_MEDIA_TYPE = lookupTable<ConfigFormat>({
  "application/json": "json", "text/json": "json", "application/yaml": "yaml", "application/x-yaml": "yaml",
  "text/yaml": "yaml", "text/x-yaml": "yaml", "application/toml": "toml",
});
const MEDIA_TYPE: Record<ConfigFormat, string> = { json: "application/json", yaml: "application/yaml", toml: "application/toml" };
const LOCKFILES = new Set([
  "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "composer.lock", "cargo.lock", "poetry.lock",
  "uv.lock", "pipfile.lock", "flake.lock", "bun.lock",
]);

function formatOf(input: Pick<ReaderInput, "path" | "contentType">): ConfigFormat | undefined {
  const mediaType = mediaTypeOf(input.contentType);
  return BY_NAME[baseNameOf(input.path)] ?? BY_EXTENSION[extensionOf(input.path)] ?? BY_MEDIA_TYPE[mediaType]
    ?? (mediaType.endsWith("+json") ? "json" : undefined);
}

/** The parts to make factions of: whole documents for small files, else top-level entries. */
function partsOf(text: string, format: ConfigFormat, small: boolean): ConfigPart[] | undefined {
  const docs = configDocuments(text, format);
  return docs?.flatMap((doc) => (small || doc.entries.length === 0 ? [doc] : doc.entries));
}

function readConfig(input: ReaderInput): ReadOutput {
  const builder = new DocumentBuilder();
  const format = formatOf(input);
  if (format === undefined || LOCKFILES.has(baseNameOf(input.path))) return builder.finish();
  // Bytes that are not text (a NUL) give an empty reading, as the secret scan skipped them.
  const text = readableText(input.bytes) ?? "";
  if (text.trim().length === 0) return builder.finish();
  const lines = new LineIndex(text);
  const inferredType = MEDIA_TYPE[format];
  const parts = partsOf(text, format, lines.lineCount <= SMALL_CONFIG_LINES);
  if (parts === undefined) {
    const start = text.search(/\S/);
    const end = text.trimEnd().length;
    builder.block({ factionType: "config", inferredType, location: lines.span(start, end), text: text.slice(start, end) }, []);
    return builder.finish();
  }
  const budget: ClaimBudget = { left: MAX_CONFIG_CELLS };
  for (const part of parts.slice(0, MAX_CONFIG_FACTIONS)) {
    // Parsers may count the line break after a block value as part of it.
    let end = part.end;
    while (end > part.start && /\s/.test(text[end - 1] ?? "")) end--;
    const span = { factionType: "config" as const, inferredType, location: lines.span(part.start, end), text: text.slice(part.start, end) };
    builder.block(span, leafClaims(part.value, part.path, budget));
  }
  return builder.finish();
}

/** Reader for JSON, YAML and TOML files (by extension, well-known name or media type). */
export const configReader: Reader = {
  name: "config",
  accepts: (input) => formatOf(input) !== undefined,
  read: readConfig,
};
