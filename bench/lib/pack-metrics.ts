/**
 * How well a context pack covers a task's gold: the files and declarations
 * the real change touched.
 */
import { mean } from "./ir-metrics.js";

/** A gold declaration: by stable id, or by file path and bare name (hunk headers carry no more). */
export type GoldDeclaration = { symbolId: string } | { path: string; name: string };

export interface Gold {
  files: string[];
  declarations: GoldDeclaration[];
}

/** What is scored of a pack. */
export interface PackView {
  declarations: Array<{ symbol: string; symbolId: string; filepath: string }>;
  files?: Array<{ filepath: string }>;
  used: number;
}

export interface PackScore {
  /** Share of gold files among the pack's files (its declarations' and its `files` rows). */
  fileRecall: number;
  /** The same, counting only the files of packed declarations. */
  declarationFileRecall: number;
  /** Share of gold declarations packed; NaN when the task has none. */
  declarationRecall: number;
  /** Share of packed declarations in a gold file (0 for an empty pack). */
  precision: number;
  /** Share of packed declarations that are gold declarations. */
  declarationPrecision: number;
  declarations: number;
  used: number;
}

function isGold(d: PackView["declarations"][number], g: GoldDeclaration): boolean {
  if ("symbolId" in g) return d.symbolId === g.symbolId;
  return d.filepath === g.path && (d.symbol.split(".").at(-1) ?? d.symbol) === g.name;
}

/** Scores one pack against one task's gold. */
export function scorePack(pack: PackView, gold: Gold): PackScore {
  const goldFiles = new Set(gold.files);
  const declarationFiles = new Set(pack.declarations.map((d) => d.filepath));
  const allFiles = new Set([...declarationFiles, ...(pack.files ?? []).map((f) => f.filepath)]);
  const share = (files: Set<string>) => (goldFiles.size === 0 ? 0 : [...goldFiles].filter((f) => files.has(f)).length / goldFiles.size);
  const found = gold.declarations.filter((g) => pack.declarations.some((d) => isGold(d, g))).length;
  const n = pack.declarations.length;
  return {
    fileRecall: share(allFiles),
    declarationFileRecall: share(declarationFiles),
    declarationRecall: gold.declarations.length === 0 ? Number.NaN : found / gold.declarations.length,
    precision: n === 0 ? 0 : pack.declarations.filter((d) => goldFiles.has(d.filepath)).length / n,
    declarationPrecision: n === 0 ? 0 : pack.declarations.filter((d) => gold.declarations.some((g) => isGold(d, g))).length / n,
    declarations: n,
    used: pack.used,
  };
}

export type Summary = Record<keyof PackScore, number> & { n: number; withGoldDeclarations: number };

/** Means over tasks; declaration recall over the tasks that have gold declarations. */
export function summarize(scores: readonly PackScore[]): Summary {
  const withDecls = scores.filter((s) => !Number.isNaN(s.declarationRecall));
  const avg = (key: keyof PackScore) => mean(scores.map((s) => s[key]));
  return {
    fileRecall: avg("fileRecall"),
    declarationFileRecall: avg("declarationFileRecall"),
    declarationRecall: mean(withDecls.map((s) => s.declarationRecall)),
    precision: avg("precision"),
    declarationPrecision: avg("declarationPrecision"),
    declarations: avg("declarations"),
    used: avg("used"),
    n: scores.length,
    withGoldDeclarations: withDecls.length,
  };
}
