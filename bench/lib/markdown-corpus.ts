/**
 * Document corpora for the ingest benchmark: BEIR SciFact's `corpus.jsonl`
 * written as one Markdown file per abstract, and a long Markdown document
 * (sections, paragraphs, lists, tables) assembled from real text.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One BEIR corpus line. */
export interface Abstract {
  _id: string;
  title: string;
  text: string;
}

/** The abstracts of a BEIR `corpus.jsonl` (the first `limit` when given); a line without `_id` or `text` is an error naming it. */
export function readAbstracts(path: string, limit = Number.POSITIVE_INFINITY): Abstract[] {
  const out: Abstract[] = [];
  for (const [i, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (out.length >= limit) break;
    if (line.trim() === "") continue;
    const row = JSON.parse(line) as Partial<Abstract>;
    if (typeof row._id !== "string" || typeof row.text !== "string") throw new Error(`${path}:${i + 1}: not a BEIR corpus line (needs _id and text)`);
    out.push({ _id: row._id, title: typeof row.title === "string" ? row.title : "", text: row.text });
  }
  return out;
}

/** Writes each abstract to `<dir>/<_id>.md` as `# title`, a blank line, the text; answers the bytes written. */
export function writeAbstracts(dir: string, abstracts: readonly Abstract[]): number {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (const a of abstracts) {
    const text = a.title ? `# ${a.title}\n\n${a.text}\n` : `${a.text}\n`;
    writeFileSync(join(dir, `${a._id}.md`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/**
 * A Markdown document of exactly `lines` lines from real paragraphs: a
 * section per paragraph, its sentences as lines, every fourth as a list,
 * every ninth with a small table. `paragraphs` need a title and text each.
 */
export function longMarkdown(paragraphs: ReadonlyArray<{ title: string; text: string }>, lines: number): string {
  if (paragraphs.length === 0) throw new Error("no paragraphs to build the long document from");
  const out: string[] = ["# Collected abstracts", "", "A long document assembled for the edit-latency benchmark.", ""];
  for (let i = 0; out.length < lines; i++) {
    const p = paragraphs[i % paragraphs.length]!;
    const sentences = p.text.split(/(?<=\.)\s+/).filter((s) => s.length > 0);
    out.push(`## ${p.title || `Section ${i + 1}`}`, "");
    if (i % 4 === 1) for (const s of sentences) out.push(`- ${s}`);
    else if (i % 9 === 2) out.push("| section | sentences | characters |", "|---|---|---|", `| ${i + 1} | ${sentences.length} | ${p.text.length} |`);
    else for (const s of sentences) out.push(s);
    out.push("");
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** Paragraphs of Markdown text (blank-line separated, prose only), to feed `longMarkdown` when no abstracts are at hand. */
export function markdownParagraphs(text: string): Array<{ title: string; text: string }> {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => /^[A-Za-z]/.test(p) && p.length > 60 && !/[|`<>]/.test(p))
    .map((p, i) => ({ title: `Paragraph ${i + 1}`, text: p }));
}
