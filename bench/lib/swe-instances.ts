/**
 * The SWE-bench Lite instances the localisation benchmark can run here:
 * those whose repository is fetched and whose `base_commit` the mirror
 * holds, grouped by repository and ordered by commit date within each, so
 * that moving one ingested tree from instance to instance sends only the
 * files that changed in between.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { hasCommit } from "./git-tree.js";
import { mirrorOf } from "./code-tasks.js";

/** One row of `swebench_lite_test_retrieval.jsonl` (the fields used here). */
export interface SweInstance {
  instanceId: string;
  repo: string;
  baseCommit: string;
  task: string;
  /** Exactly one file for every Lite instance. */
  goldFiles: string[];
  /** From the patch's hunk headers: `path::name`, not class-qualified. */
  goldFunctions: Array<{ path: string; name: string }>;
}

export interface SweRepoGroup {
  repo: string;
  gitDir: string;
  /** Oldest base commit first. */
  instances: SweInstance[];
}

export interface SweSelection {
  groups: SweRepoGroup[];
  /** Instances in the data file, by repository (all 300). */
  totalByRepo: Map<string, number>;
  /** Repositories with no mirror, and instances whose commit the mirror lacks. */
  unfetched: string[];
  missingCommits: string[];
}

interface Row {
  instance_id: string;
  repo: string;
  base_commit: string;
  task: string;
  gold_files: string[];
  gold_functions_approx: string[];
}

function toInstance(r: Row): SweInstance {
  return {
    instanceId: r.instance_id,
    repo: r.repo,
    baseCommit: r.base_commit,
    task: r.task,
    goldFiles: r.gold_files,
    goldFunctions: r.gold_functions_approx.map((g) => {
      const parts = g.split("::");
      return { path: parts[0] ?? "", name: parts.at(-1) ?? "" };
    }),
  };
}

/** Committer time of each commit, read in one `git show`. */
function commitTimes(gitDir: string, commits: readonly string[]): Map<string, number> {
  if (commits.length === 0) return new Map();
  const out = execFileSync("git", ["--git-dir", gitDir, "show", "-s", "--format=%H %ct", ...commits], { maxBuffer: 1 << 26 }).toString("utf8");
  return new Map(out.split("\n").filter(Boolean).map((l) => [l.split(" ")[0]!, Number(l.split(" ")[1])] as const));
}

/** `n` items spread evenly over a list (all of them when it is not longer). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

/**
 * The runnable instances. `repos` keeps only those repositories (all when
 * empty); `limit` keeps that many, spread evenly over the instances sorted
 * by id, so a short run still visits several repositories and is the same
 * every time.
 */
export function selectInstances(dataFile: string, mirrors: string, repos: readonly string[], limit: number): SweSelection {
  const rows = readFileSync(dataFile, "utf8").split("\n").filter(Boolean).map((l) => toInstance(JSON.parse(l) as Row));
  const totalByRepo = new Map<string, number>();
  for (const r of rows) totalByRepo.set(r.repo, (totalByRepo.get(r.repo) ?? 0) + 1);
  const unfetched: string[] = [];
  const missingCommits: string[] = [];
  const runnable: SweInstance[] = [];
  const gitDirs = new Map<string, string>();
  for (const repo of [...totalByRepo.keys()].sort()) {
    if (repos.length > 0 && !repos.includes(repo)) continue;
    const gitDir = mirrorOf(mirrors, repo);
    if (!gitDir) {
      unfetched.push(repo);
      continue;
    }
    gitDirs.set(repo, gitDir);
    for (const r of rows.filter((x) => x.repo === repo)) {
      if (hasCommit(gitDir, r.baseCommit)) runnable.push(r);
      else missingCommits.push(r.instanceId);
    }
  }
  const chosen = spread(
    runnable.sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1)),
    limit > 0 ? limit : runnable.length,
  );
  const groups: SweRepoGroup[] = [];
  for (const [repo, gitDir] of gitDirs) {
    const mine = chosen.filter((r) => r.repo === repo);
    if (mine.length === 0) continue;
    const times = commitTimes(gitDir, [...new Set(mine.map((r) => r.baseCommit))]);
    mine.sort((a, b) => (times.get(a.baseCommit) ?? 0) - (times.get(b.baseCommit) ?? 0) || (a.instanceId < b.instanceId ? -1 : 1));
    groups.push({ repo, gitDir, instances: mine });
  }
  return { groups, totalByRepo, unfetched, missingCommits };
}
