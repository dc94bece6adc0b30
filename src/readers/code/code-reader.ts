/**
 * Source files of every language the code extractor knows: a `code_unit`
 * faction and a cell per declaration, cell-less factions for top-level
 * code, and the file's code facts (declarations, references, imports) for
 * the code index. Like a file too large to parse (`too_large`), bytes
 * that read as noise (`not_text`) and brackets nested past
 * `MAX_CODE_NESTING` (`too_deep`) give facts with that problem and no
 * factions, decided before the parser sees the text.
 */
import { extractCode, languageForPath } from "../../code/extract-code.js";
import type { CodeFacts } from "../../code/code-facts.js";
import { codeNestsWithin } from "./code-nesting.js";
import { codeUnits } from "./code-units.js";
import { decodeText, isReadableText } from "../../text/decode-text.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { lookupTable } from "../../lookup.js";

/** Media type of each language's factions (DECISIONS.md: `inferredType` is a media type). */
const MEDIA_TYPES = lookupTable<string>({
  typescript: "text/x-typescript",
  tsx: "text/x-tsx",
  javascript: "text/javascript",
  python: "text/x-python",
  go: "text/x-go",
  rust: "text/x-rust",
  java: "text/x-java",
  c: "text/x-c",
  cpp: "text/x-c++",
  csharp: "text/x-csharp",
  ruby: "text/x-ruby",
  php: "text/x-php",
  bash: "text/x-shellscript",
  kotlin: "text/x-kotlin",
  scala: "text/x-scala",
  swift: "text/x-swift",
  haskell: "text/x-haskell",
  elixir: "text/x-elixir",
  lua: "text/x-lua",
  zig: "text/x-zig",
});

function emptyReading(language: string, problem: string): ReadOutput {
  const code: CodeFacts = { language, declarations: [], references: [], imports: [], problems: [problem] };
  return { factions: [], cells: [], code };
}

async function readCode(input: ReaderInput): Promise<ReadOutput> {
  const language = languageForPath(input.path) ?? "unknown";
  const source = decodeText(input.bytes);
  // Bytes that are not text (an MPEG-TS `.ts`, say) give no units.
  if (source === undefined || !isReadableText(source)) return emptyReading(language, "not_text");
  if (!codeNestsWithin(source, language)) return emptyReading(language, "too_deep");
  const facts = await extractCode(input.path, source);
  if (!facts) return emptyReading(language, "unsupported");
  // A file too large to parse is almost always generated; its text is not worth a faction per line run.
  if (facts.problems?.includes("too_large")) return { factions: [], cells: [], code: facts };
  return codeUnits(input.path, source, facts, MEDIA_TYPES[facts.language] ?? "text/plain");
}

/** Reader for source code, by path: every extension `languageForPath` knows. */
export const codeReader: Reader = {
  name: "code",
  accepts: (input) => languageForPath(input.path) !== undefined,
  read: readCode,
};
