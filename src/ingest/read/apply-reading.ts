import { newOrderedId } from "../../ids.js";
import type { ReadOutput } from "../../readers/reader.js";
import { insertCells, liveCellsOfFile, placeCell, retireCells } from "../../store/graph/cells.js";
import type { CellKey, NewCell } from "../../store/graph/cells.js";
import type { Queryable } from "../../store/db.js";
import { insertFactions, liveFactionKeys, placeFaction, retireFactions, storedHash, storeFactionText } from "../../store/graph/factions.js";
import type { FactionKey, NewFaction } from "../../store/graph/factions.js";
import { deriveInWriter } from "./derivers/index.js";
import type { Carried, CellChanges, ReadTarget } from "./derivers/index.js";
import { factionHash } from "./faction-hash.js";

/** What one reading changed. */
export interface ReadingStats {
  factionsKept: number;
  factionsAdded: number;
  factionsRetired: number;
  cellsAdded: number;
  cellsRetired: number;
}

export type { CellChanges } from "./derivers/index.js";

/**
 * A reading as it reaches the writer: the reader's output, what the
 * derivers worked out in the reader thread (`carried`, by deriver name),
 * and, when the thread worked them out, each faction's `factionHash` and
 * which factions' text is exactly their lines of the bytes read (stored as
 * such: see store/graph/faction-text.ts).
 */
export interface ReadingToApply {
  readonly output: ReadOutput;
  readonly carried?: Carried | undefined;
  readonly factionHashes?: readonly string[] | undefined;
  readonly textAtLines?: readonly boolean[] | undefined;
}

/** What one reading changed, with the cells whose index rows follow. */
export interface AppliedReading extends ReadingStats {
  cells: CellChanges;
}

/**
 * Persists a reading incrementally, then runs the derivers' writer phase
 * (code facts, entities, search rows …: derivers/index.ts). Factions are
 * matched to the live ones by content hash: a match keeps its id and its
 * cells (only its place moves); new text gets new factions and cells; live
 * factions left unmatched are retired with their cells.
 */
export async function applyReading(tx: Queryable, target: ReadTarget, reading: ReadingToApply, now: string): Promise<AppliedReading> {
  const { output, factionHashes, textAtLines } = reading;
  const hashes = factionHashes?.length === output.factions.length ? factionHashes : output.factions.map(factionHash);
  const atLines = (i: number) => textAtLines?.length === output.factions.length && textAtLines[i] === true;
  const existing = await liveFactionKeys(tx, target.fileId);
  const { factionIds, kept, retired } = matchFactions(existing, hashes);
  const changes: CellChanges = { whole: kept.size === 0, added: [], retired: [], recontexted: [] };
  const stats: AppliedReading = { factionsKept: kept.size, factionsAdded: 0, factionsRetired: retired.length, cellsAdded: 0, cellsRetired: 0, cells: changes };
  // The file's live cells (before any retires) in one index range: a list of kept factions' ids was one lookup each.
  const oldCells = kept.size === 0 ? new Map<string, CellKey[]>() : await liveCellsOfFile(tx, target.fileId);
  await retireFactions(tx, retired, now);
  const rehomed = await writeFactions(tx, target, output, { factionIds, hashes, kept, atLines }, stats);

  const cellIds = assignCellIds(output, factionIds, kept, oldCells);
  const fresh: NewCell[] = [];
  const stale: string[] = [];
  const moved: Array<{ cellId: string; parentCellId: string | null; ordinal: number }> = [];
  for (const [j, c] of output.cells.entries()) {
    const parentCellId = c.parent === undefined ? null : cellIds.ids[c.parent] ?? null;
    const reused = cellIds.reused.get(j);
    if (!reused) {
      fresh.push({ ...target, cellId: cellIds.ids[j]!, factionId: factionIds[c.faction]!, parentCellId, ordinal: j, text: c.text });
    } else {
      if (reused.parentCellId !== parentCellId || reused.ordinal !== j) moved.push({ cellId: reused.cellId, parentCellId, ordinal: j });
      if (rehomed.has(reused.factionId)) changes.recontexted.push(reused.cellId);
    }
  }
  for (const dropped of cellIds.dropped) stale.push(dropped.cellId);
  // Cells of retired factions retire with them (retireFactions); their index rows go too.
  if (retired.length > 0 && !changes.whole) {
    const gone = new Set(retired);
    for (const [factionId, cells] of oldCells) if (gone.has(factionId)) for (const c of cells) changes.retired.push(c.cellId);
  }
  changes.retired.push(...stale);
  changes.added.push(...fresh.map((c) => c.cellId));
  await retireCells(tx, stale, now);
  await insertCells(tx, fresh, now);
  // A kept cell is placed once its new parent, which may be a fresh cell, is stored: parents are named by rowid.
  for (const m of moved) await placeCell(tx, m.cellId, m.parentCellId, m.ordinal, now);
  stats.cellsAdded = fresh.length;
  stats.cellsRetired = stale.length;
  await deriveInWriter(tx, { file: target, output, ids: { factionIds, cellIds: cellIds.ids }, changes, now }, reading.carried ?? {});
  return stats;
}

/**
 * Inserts the reading's new factions and moves the kept ones to their new
 * place; answers the kept factions whose heading path moved (their cells'
 * context changed).
 */
async function writeFactions(
  tx: Queryable,
  target: ReadTarget,
  output: ReadOutput,
  matched: { factionIds: readonly string[]; hashes: readonly string[]; kept: ReadonlyMap<number, FactionKey>; atLines: (i: number) => boolean },
  stats: AppliedReading,
): Promise<Set<string>> {
  const { factionIds, hashes, kept, atLines } = matched;
  const rehomed = new Set<string>();
  const newFactions: NewFaction[] = [];
  for (const [i, f] of output.factions.entries()) {
    const headingPath = JSON.stringify(f.headingPath);
    const old = kept.get(i);
    if (!old) {
      newFactions.push({ ...f, ...target, factionId: factionIds[i]!, contentHash: hashes[i]!, ordinal: i, headingPath, textAtLines: atLines(i) });
      continue;
    }
    // A kept faction is now read from the new bytes: its text is stored as their lines only if it is exactly them.
    if (old.textAtLines !== atLines(i)) await storeFactionText(tx, old.factionId, f.text, atLines(i));
    if (old.ordinal !== i || old.lineStart !== (f.location.lineStart ?? null) || old.lineEnd !== (f.location.lineEnd ?? null) || old.headingPath !== headingPath) {
      await placeFaction(tx, old.factionId, { ordinal: i, location: f.location, headingPath });
      if (old.headingPath !== headingPath) rehomed.add(old.factionId);
    }
  }
  await insertFactions(tx, newFactions);
  stats.factionsAdded = newFactions.length;
  return rehomed;
}

/** Pairs each new faction (by its hash, as stored) with a live one of the same hash, first come first served. */
function matchFactions(existing: FactionKey[], hashes: readonly string[]) {
  const byHash = new Map<string, FactionKey[]>();
  for (const e of existing) {
    const list = byHash.get(e.contentHash);
    if (list) list.push(e);
    else byHash.set(e.contentHash, [e]);
  }
  const kept = new Map<number, FactionKey>();
  const factionIds = hashes.map((hash, i) => {
    const match = byHash.get(storedHash(hash))?.shift();
    if (match) kept.set(i, match);
    return match?.factionId ?? newOrderedId("fac");
  });
  const used = new Set([...kept.values()].map((k) => k.factionId));
  const retired = existing.filter((e) => !used.has(e.factionId)).map((e) => e.factionId);
  return { factionIds, kept, retired };
}

/**
 * Cell ids for the new reading: a kept faction whose cells read the same
 * (same texts, same order) keeps their ids; otherwise its cells are renewed.
 */
function assignCellIds(output: ReadOutput, factionIds: string[], kept: Map<number, FactionKey>, oldCells: Map<string, CellKey[]>) {
  const byFaction = new Map<number, number[]>();
  for (const [j, c] of output.cells.entries()) {
    const list = byFaction.get(c.faction);
    if (list) list.push(j);
    else byFaction.set(c.faction, [j]);
  }
  const ids: string[] = output.cells.map(() => "");
  const reused = new Map<number, CellKey>();
  const dropped: CellKey[] = [];
  for (const [i] of output.factions.entries()) {
    const newIdx = byFaction.get(i) ?? [];
    const old = kept.has(i) ? (oldCells.get(factionIds[i]!) ?? []) : [];
    const same = old.length === newIdx.length && newIdx.every((j, k) => output.cells[j]!.text === old[k]!.text);
    if (same) newIdx.forEach((j, k) => reused.set(j, old[k]!));
    else dropped.push(...old);
  }
  for (const [j] of output.cells.entries()) ids[j] = reused.get(j)?.cellId ?? newOrderedId("cel");
  return { ids, reused, dropped };
}
