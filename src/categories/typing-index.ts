/**
 * The incremental typing pass. Shapes group within one instance source
 * (sections, front matter, table rows, config objects: see
 * `propose-shapes.ts`), and within a source across every file, so a batch
 * of readings can change the proposals of the sources its files held
 * before or hold now, and no others. The index remembers, for each ready
 * file of a project, the sources of its instances as of the last pass; a
 * pass reads the material of the files the batch touched, then of the
 * other files holding those sources, and proposes, refreshes and drops the
 * shapes of those sources only — what the whole pass would have written,
 * without reading the rest of the project. A batch of source code (no
 * instances) reads nothing but its own files' rows.
 *
 * The whole pass runs instead the first time (the index starts empty in
 * each lease term: another process may have read files meanwhile), and
 * whenever the project has a type (see `reviewTypesOf`). Files
 * that stopped being ready, or became ready without this process reading
 * them, are found by comparing the index with the project's ready file ids
 * and count as touched.
 *
 * Both passes read through `readTyping`: the material a page of files at a
 * time, keeping instances, so neither holds more than a page of material.
 */
import type { Db } from "../store/db.js";
import { log } from "../logger.js";
import { readyFileIds } from "../store/categories/typing-material.js";
import type { InstanceSource } from "./instance.js";
import { reviewTypes, reviewTypesOf } from "./review-types.js";
import type { ReviewSummary } from "./review-types.js";
import { readTyping } from "./typing-read.js";
import type { TypingRead } from "./typing-read.js";

const NO_SOURCES: ReadonlySet<InstanceSource> = new Set();
const NOTHING_READ: TypingRead = { instances: [], sources: new Map() };

/** What one pass did: the review's counts, whether it was the whole pass, and how many files' material it read. */
export interface IndexedReview extends ReviewSummary {
  whole: boolean;
  filesRead: number;
}

export class TypingIndex {
  /** Per project: each ready file's instance sources as of the last pass. */
  readonly #projects = new Map<string, Map<string, ReadonlySet<InstanceSource>>>();
  /** Rows of material a page holds (the store's page unless a test asks for smaller pages). */
  readonly #pageRows: number | undefined;

  constructor(options: { pageRows?: number } = {}) {
    this.#pageRows = options.pageRows;
  }

  /** Runs the pass over one project after a batch that settled `touched` (file ids). */
  async review(db: Db, projectId: string, touched: Iterable<string>, now: string): Promise<IndexedReview> {
    const known = this.#projects.get(projectId);
    if (!known) return this.#whole(db, projectId, now);
    const ready = new Set(await readyFileIds(db, projectId));
    const changed = new Set(touched);
    for (const id of known.keys()) if (!ready.has(id)) changed.add(id);
    for (const id of ready) if (!known.has(id)) changed.add(id);
    const first = await readTyping(db, projectId, [...changed], this.#pageRows);
    const scope = new Set<InstanceSource>();
    for (const id of changed) for (const s of [...(known.get(id) ?? NO_SOURCES), ...(first.sources.get(id) ?? NO_SOURCES)]) scope.add(s);
    const others = [...known].filter(([id, sources]) => !changed.has(id) && [...sources].some((s) => scope.has(s))).map(([id]) => id);
    const rest = scope.size === 0 ? NOTHING_READ : await readTyping(db, projectId, others, this.#pageRows);
    // Run even with nothing in scope: a project with a type gets the whole pass (its schema may have changed).
    const summary = await reviewTypesOf(db, projectId, now, [...first.instances, ...rest.instances], scope);
    if (!summary) return this.#whole(db, projectId, now);
    for (const id of changed) {
      if (ready.has(id)) known.set(id, first.sources.get(id) ?? NO_SOURCES);
      else known.delete(id);
    }
    return { ...summary, whole: false, filesRead: changed.size + others.length };
  }

  /** The whole pass, and the index built from the material it read. */
  async #whole(db: Db, projectId: string, now: string): Promise<IndexedReview> {
    const ready = await readyFileIds(db, projectId);
    const { instances, sources } = await readTyping(db, projectId, undefined, this.#pageRows);
    const summary = await reviewTypes(db, projectId, now, instances);
    this.#projects.set(projectId, new Map(ready.map((id) => [id, sources.get(id) ?? NO_SOURCES])));
    return { ...summary, whole: true, filesRead: ready.length };
  }
}

/**
 * The pass after a drained batch: each project over the files it touched
 * (file ids by project), logging (not throwing) a project's failure.
 */
export async function reviewTouched(db: Db, index: TypingIndex, touched: ReadonlyMap<string, ReadonlySet<string>>, clock: () => number): Promise<void> {
  for (const [projectId, files] of touched) {
    try {
      const summary = await index.review(db, projectId, files, new Date(clock()).toISOString());
      if (summary.proposed + summary.filed + summary.filled + summary.schemaProposals > 0) log.info("types reviewed", { projectId, ...summary });
    } catch (err) {
      log.error("reviewing types failed", { projectId, error: err });
    }
  }
}
