import type { SyncProgress, SyncSummary } from "../ingest/folder/folder-sync.js";

const PHASE_LABEL: Record<SyncProgress["phase"], string> = { scan: "scanning", store: "storing", read: "reading" };
const BAR_WIDTH = 24;
const REDRAW_MS = 100;
const PLAIN_EVERY_MS = 5000;

/** Shows a sync's progress on a stream. */
export interface ProgressView {
  update(progress: SyncProgress): void;
  /** Clears the bar (TTY) or prints the last phase's end (plain). */
  end(): void;
}

const num = (n: number) => n.toLocaleString("en-US");
const count = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

/**
 * A redrawn progress bar when the stream is a terminal; otherwise one line
 * per phase and one every few seconds, or nothing at all when `quiet`.
 */
export function progressView(stream: NodeJS.WriteStream, options: { quiet?: boolean } = {}): ProgressView {
  if (stream.isTTY) return barView(stream);
  if (options.quiet) return { update: () => undefined, end: () => undefined };
  return plainView(stream);
}

function barView(stream: NodeJS.WriteStream): ProgressView {
  let last = 0;
  let phase: SyncProgress["phase"] | undefined;
  return {
    update(p) {
      const now = Date.now();
      const complete = p.total > 0 && p.done >= p.total;
      if (p.phase === phase && now - last < REDRAW_MS && !complete) return;
      phase = p.phase;
      last = now;
      stream.write(`\r\x1b[2K${progressText(p, true)}`);
    },
    end() {
      if (phase) stream.write("\r\x1b[2K");
    },
  };
}

function plainView(stream: NodeJS.WriteStream): ProgressView {
  let current: SyncProgress | undefined;
  let last = 0;
  const finish = () => {
    if (current) stream.write(`${PHASE_LABEL[current.phase]} done: ${count(current.total || current.done, "file")}\n`);
  };
  return {
    update(p) {
      const now = Date.now();
      if (p.phase !== current?.phase) {
        finish();
        last = 0;
      }
      current = p;
      if (now - last < PLAIN_EVERY_MS) return;
      last = now;
      stream.write(`${progressText(p, false)}\n`);
    },
    end: finish,
  };
}

function progressText(p: SyncProgress, bar: boolean): string {
  const label = PHASE_LABEL[p.phase].padEnd(9);
  if (p.total === 0) return `${label} ${count(p.done, "file")}`;
  const share = Math.min(1, p.done / p.total);
  const filled = Math.round(share * BAR_WIDTH);
  const drawn = bar ? `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ` : "";
  return `${label} ${drawn}${String(Math.floor(share * 100)).padStart(3)}%  ${num(p.done)}/${count(p.total, "file")}`;
}

/** The summary of `pks ingest`, for people. */
export function formatSummary(root: string, projectId: string, s: SyncSummary): string {
  const lines = [
    `synced ${root} into ${projectId} in ${s.seconds.toFixed(1)} s`,
    `  files     ${num(s.files)}  (${num(s.added)} new, ${num(s.changed)} changed, ${num(s.unchanged)} unchanged, ${num(s.retired)} retired)`,
    `  factions  ${num(s.factions)}`,
    `  cells     ${num(s.cells)}`,
    `  entities  ${num(s.entities)}`,
  ];
  if (s.failed > 0) lines.push(`  failed    ${num(s.failed)} (their reading failed; the rest is served)`);
  if (s.refused.length > 0) lines.push(`  refused   ${num(s.refused.length)}`, ...s.refused.map((r) => `    ${r.path}: ${r.reason}`));
  if (s.skipped.length > 0) lines.push(`  skipped   ${num(s.skipped.length)}`, ...s.skipped.map((r) => `    ${r.path}: ${r.reason}`));
  return `${lines.join("\n")}\n`;
}

/** One line for the `serve` banner. */
export function summaryLine(s: SyncSummary): string {
  const extra = [s.refused.length > 0 ? `${num(s.refused.length)} refused` : "", s.failed > 0 ? `${num(s.failed)} failed` : ""]
    .filter(Boolean)
    .join(", ");
  const counts = [count(s.files, "file"), count(s.factions, "faction"), count(s.cells, "cell"), count(s.entities, "entity", "entities")].join(", ");
  return `  synced   ${counts} in ${s.seconds.toFixed(1)} s${extra ? ` (${extra})` : ""}`;
}

/** The summary as log fields (refusals counted, not listed). */
export function summaryFields(s: SyncSummary): Record<string, number> {
  const { files, added, changed, unchanged, retired, failed, factions, cells, entities, seconds } = s;
  return { files, added, changed, unchanged, retired, refused: s.refused.length, skipped: s.skipped.length, failed, factions, cells, entities, seconds };
}
