/**
 * What `artifact_update` takes, shared by the action (checked at dispatch)
 * and the task (checked again when it runs, since a stored input outlives
 * the code that queued it), and the two choices made from the purpose when
 * the caller leaves them out: the kind and the title.
 */
import { z } from "zod";
import { budgetField } from "../retrieve/budget.js";
import { ARTIFACT_KINDS } from "../store/artifacts/artifacts.js";
import type { ArtifactKind } from "../store/artifacts/artifacts.js";

export { ARTIFACT_KINDS } from "../store/artifacts/artifacts.js";
export type { ArtifactKind } from "../store/artifacts/artifacts.js";

/** Longest purpose and title accepted. */
export const MAX_PURPOSE = 4000;
export const MAX_TITLE = 200;
/** A title made from the purpose is cut at a word boundary near this length. */
const DERIVED_TITLE = 80;

/** The action's input; `artifactId` is declared so that it can be refused with a 403 rather than dropped. */
export const artifactInput = z.object({
  purpose: z.string().trim().min(1).max(MAX_PURPOSE).describe("what the artifact is for, in words; its cells are ranked against it"),
  kind: z
    .enum(ARTIFACT_KINDS)
    .optional()
    .describe('report, memo or summary; when left out, chosen from the purpose ("summary"/"summarize" → summary, "memo"/"note to" → memo, else report)'),
  title: z.string().trim().min(1).max(MAX_TITLE).optional().describe("the artifact's title; when left out, the purpose's first sentence"),
  budget: budgetField("the tokens of the body with no claims: its title and header").describe(
    "token ceiling of the Markdown body (default 4096, the one retrieval default; at least what the body's title and header cost)",
  ),
  artifactId: z.string().max(64).optional().describe("editing an existing artifact is not open to API keys: sending it answers 403"),
});
export type ArtifactInput = z.output<typeof artifactInput>;

/** Words that name a kind; the one that comes first in the purpose decides. */
const KIND_WORDS: ReadonlyArray<[ArtifactKind, RegExp]> = [
  ["summary", /\bsummar(?:y|ies|i[sz]e[sd]?|i[sz]ing)\b/iu],
  ["memo", /\bmemo(?:s|randum|randa)?\b|\bnote to\b/iu],
];

/**
 * The kind an artifact takes: the one asked for, else the kind word that
 * comes first in the purpose (`summary`, `summarize`/`summarise` and their
 * forms → summary; `memo`, `memorandum`, `note to` → memo), else a report.
 * "A memo summarizing the outage" is a memo; "summarize the memo" a summary.
 */
export function chooseKind(purpose: string, asked?: ArtifactKind): ArtifactKind {
  if (asked) return asked;
  let best: { kind: ArtifactKind; at: number } | undefined;
  for (const [kind, re] of KIND_WORDS) {
    const at = purpose.search(re);
    if (at >= 0 && (!best || at < best.at)) best = { kind, at };
  }
  return best?.kind ?? "report";
}

/**
 * The title an artifact takes: the one given, else the purpose's first line
 * or sentence, cut at a word boundary near 80 characters, first letter
 * capitalised.
 */
export function chooseTitle(purpose: string, given?: string): string {
  if (given !== undefined) return given.replace(/\s+/gu, " ").trim();
  const flat = firstSentence(purpose).replace(/\s+/gu, " ").trim();
  const space = flat.lastIndexOf(" ", DERIVED_TITLE);
  const cut = flat.length <= DERIVED_TITLE ? flat : `${flat.slice(0, space > DERIVED_TITLE / 4 ? space : DERIVED_TITLE)}…`;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

function firstSentence(text: string): string {
  const line = text.trim().split(/\r?\n/u)[0] ?? "";
  const end = line.search(/[.!?](?:\s|$)/u);
  return (end > 0 ? line.slice(0, end) : line).replace(/[:;,]+$/u, "");
}
