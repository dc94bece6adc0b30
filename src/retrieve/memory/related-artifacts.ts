import type { Queryable } from "../../store/db.js";
import { recentArtifacts, staleArtifacts } from "../../store/artifacts/artifacts.js";
import { artifactsCitingFiles } from "../../store/graph/answer-sources.js";
import { identifierParts, queryTerms } from "../query-terms.js";

/** Artifacts a memory answer lists at most, and the recent artifacts matched against the question. */
export const MAX_ARTIFACTS = 3;
const CANDIDATES = 500;

export interface ArtifactHit {
  artifactId: string;
  title: string;
}

/**
 * The project's artifacts relevant to a question, by words: a query term
 * matches a word of the artifact's title or purpose when one is the other
 * or, both at least four letters long, one starts with the other
 * ("invoice" · "invoices"). An artifact is relevant when at least half the
 * query's terms match (at least one). Artifacts whose cited cells are all
 * live come first, then more terms matched, then the newest. With
 * `fileIds`, only artifacts citing a cell read from one of those files.
 */
export async function relatedArtifacts(q: Queryable, projectId: string, query: string, fileIds?: readonly string[]): Promise<ArtifactHit[]> {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const needed = Math.max(1, Math.ceil(terms.length / 2));
  const matching = (await recentArtifacts(q, projectId, CANDIDATES)).flatMap((a, recency) => {
    const words = new Set(identifierParts(`${a.title} ${a.purpose}`));
    const matched = terms.filter((t) => [...words].some((w) => w === t || (Math.min(w.length, t.length) >= 4 && (w.startsWith(t) || t.startsWith(w))))).length;
    return matched >= needed ? [{ a, matched, recency }] : [];
  });
  const citing = fileIds?.length ? await artifactsCitingFiles(q, matching.map((x) => x.a.artifactId), fileIds) : undefined;
  const scored = citing ? matching.filter((x) => citing.has(x.a.artifactId)) : matching;
  const stale = await staleArtifacts(q, scored.map((x) => x.a.artifactId));
  const isStale = (x: (typeof scored)[number]) => Number(stale.has(x.a.artifactId));
  scored.sort((x, y) => isStale(x) - isStale(y) || y.matched - x.matched || x.recency - y.recency);
  return scored.slice(0, MAX_ARTIFACTS).map(({ a }) => ({ artifactId: a.artifactId, title: a.title }));
}
