/**
 * Top functions by self time over the `.cpuprofile` files Node writes with
 * `--cpu-prof` (one per thread): where an ingest spends its CPU.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileLine {
  /** `name (file:line)`, the file relative to the repository where it is inside it. */
  name: string;
  selfMs: number;
  /** Share of the busy (non-idle) sampled time of the profiles read. */
  share: number;
}

export interface ProfileSummary {
  files: number;
  totalMs: number;
  /** Sampled time in all profiles, of which idle and garbage collection. */
  idleMs: number;
  gcMs: number;
  top: ProfileLine[];
  /** Self time by source area (a `src/` folder, a package, or a runtime bucket). */
  areas: ProfileLine[];
}

function shortUrl(url: string, repo: string): string {
  const path = url.replace(/^file:\/\//, "");
  if (path.startsWith(repo)) return path.slice(repo.length).replace(/^\//, "");
  return path.replace(/^.*node_modules\//, "node_modules/");
}

/** The area a frame belongs to: `src/<folder>`, an npm package, `node:` internals, or the runtime bucket. */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/(src\/[^/]+\/(?:[^/]+\/)?)/.exec(url);
  if (src) return src[1]!.replace(/\/$/, "");
  if (url.startsWith("node:")) return "node: internals";
  return url.replace(/^.*\//, "");
}

/** Reads every `.cpuprofile` under `dir` and sums self time per function. */
export function summarizeProfiles(dir: string, repo: string, top = 20): ProfileSummary {
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  const byName = new Map<string, number>();
  const byArea = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  let gcMs = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<number, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i] ?? 0) / 1000);
    for (const [id, ms] of self) {
      const node = nodes.get(id);
      if (!node) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      totalMs += ms;
      if (functionName === "(idle)") {
        idleMs += ms;
        continue;
      }
      if (functionName === "(garbage collector)") gcMs += ms;
      const name = url ? `${functionName || "(anonymous)"} (${shortUrl(url, repo)}:${lineNumber + 1})` : functionName || "(anonymous)";
      byName.set(name, (byName.get(name) ?? 0) + ms);
      const area = areaOf(url, functionName);
      byArea.set(area, (byArea.get(area) ?? 0) + ms);
    }
  }
  const busy = totalMs - idleMs;
  const lines = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, selfMs]) => ({ name, selfMs, share: busy > 0 ? selfMs / busy : 0 }));
  return { files: files.length, totalMs, idleMs, gcMs, top: lines(byName, top), areas: lines(byArea, 15) };
}
