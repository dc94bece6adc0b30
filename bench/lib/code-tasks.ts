/**
 * Real coding tasks for the code evaluation, mined from TypeScript
 * histories: commit message → the declarations its diff touched, found on
 * the parent commit. (SWE-bench Lite localisation is bench/eval-swebench.ts.)
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ChangedFile } from "./git-tree.js";
import { changedFiles, commitsTouching } from "./git-tree.js";
import type { Gold } from "./pack-metrics.js";

export interface CodeTask {
  id: string;
  /** The tree the task is asked against. */
  commit: string;
  task: string;
  /** Known up front, or computed on the ingested tree from `changed`. */
  gold?: Gold;
  changed?: ChangedFile[];
}

export interface TaskGroup {
  source: "mined";
  repo: string;
  gitDir: string;
  /** Which paths of a tree are ingested. */
  keep: (path: string) => boolean;
  tasks: CodeTask[];
}

/** Mirror git directory of `owner/name`, if fetched. */
export function mirrorOf(mirrors: string, repo: string): string | undefined {
  const dir = join(mirrors, repo.replace("/", "+"), "repo");
  return existsSync(dir) ? dir : undefined;
}

const SKIP_SUBJECT = /^(chore|docs?|tests?|ci|build|style|release|bump|merge|revert)\b|^v?\d+\.\d+|^\S+$/i;
const TS_SOURCE = /\.(ts|tsx|mts|cts)$/;
const isTestPath = (p: string) => /(^|\/)(test|tests|__tests__)\//.test(p) || /\.(test|spec)\.[cm]?tsx?$/.test(p);

function messageOf(subject: string, body: string): string {
  const kept = body.split("\n").filter((l) => !/^(co-authored-by|signed-off-by):/i.test(l.trim()));
  return `${subject}\n\n${kept.join("\n")}`.replace(/\s*\(#\d+\)/g, "").trim();
}

/** A TypeScript repository tasks are mined from: where its source lives, and whether its tasks tune or report. */
export interface MinedRepo {
  repo: string;
  /** Folders whose commits make tasks (their non-test TypeScript files are the gold). */
  srcDirs: string[];
  role: "tune" | "report";
}

/**
 * The mined repositories. Weights and heuristics are chosen on the `tune`
 * ones only; the `report` ones were never read while tuning (their tasks
 * are scored, not looked at). hono is left out on purpose: it is the
 * repository of the held-out figures.
 */
export const MINED_REPOS: readonly MinedRepo[] = [
  { repo: "kysely-org/kysely", srcDirs: ["src"], role: "tune" },
  { repo: "trpc/trpc", srcDirs: ["packages"], role: "tune" },
  { repo: "colinhacks/zod", srcDirs: ["src", "packages/zod/src"], role: "report" },
  { repo: "drizzle-team/drizzle-orm", srcDirs: ["drizzle-orm/src"], role: "report" },
];

/**
 * Tasks from a TypeScript history: recent non-merge commits under `srcDirs`
 * whose subject reads as a change (no chores, releases, docs) and that modify
 * 1–5 non-test source files. Oldest first; each is asked against its parent.
 * The whole repository's TypeScript is ingested (tests, examples and any
 * generated copies included), as an agent's checkout would hold it.
 */
export function minedGroup(repo: string, gitDir: string, srcDirs: readonly string[], n: number): TaskGroup {
  const tasks: CodeTask[] = [];
  const inSource = (path: string) => TS_SOURCE.test(path) && !path.endsWith(".d.ts") && srcDirs.some((d) => path.startsWith(`${d}/`));
  for (const c of commitsTouching(gitDir, srcDirs).reverse()) {
    if (tasks.length >= n) break;
    if (c.parents.length !== 1 || SKIP_SUBJECT.test(c.subject.trim())) continue;
    const changed = changedFiles(gitDir, c.parents[0]!, c.commit, inSource)?.filter((f) => inSource(f.path));
    if (!changed) continue;
    const modified = changed.filter((f) => f.status === "M" && !isTestPath(f.path));
    if (modified.length === 0 || changed.length > 5) continue;
    tasks.push({ id: c.commit.slice(0, 10), commit: c.parents[0]!, task: messageOf(c.subject, c.body), changed: modified });
  }
  const keep = (p: string) => TS_SOURCE.test(p) && !p.startsWith("site/") && !p.includes("node_modules/") && !p.endsWith(".d.ts");
  return { source: "mined", repo, gitDir, keep, tasks: tasks.reverse() };
}
