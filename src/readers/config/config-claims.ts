/**
 * Claims of structured data (configuration, JSON records): one
 * "path.to.key: value" per scalar leaf, arrays of scalars joined into one
 * value, array elements addressed as `[i]`. A shared budget caps how many
 * claims one file yields, and nesting below a fixed depth is elided.
 */
import { capCellText, collapseWhitespace } from "../common/sentences.js";

/** A path through the data: keys and array indexes. */
export type DataPath = readonly (string | number)[];

/** How many claims may still be made; shared by all factions of a file. */
export interface ClaimBudget {
  left: number;
}

/** Nesting below this depth is summarised as `{…}` / `[…]`. */
export const MAX_DATA_DEPTH = 10;

function isScalar(value: unknown): boolean {
  return value === null || value instanceof Date || (typeof value !== "object" && typeof value !== "function");
}

function renderScalar(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  return collapseWhitespace(String(value));
}

/** A key as written in a path: bare, or quoted when it would be ambiguous. */
function renderKey(key: string): string {
  return key.length === 0 || /[.\s[\]"]/.test(key) ? `[${JSON.stringify(key)}]` : key;
}

/** `a.b[0].c`, with `["x.y"]` for keys holding dots or spaces. */
export function renderPath(path: DataPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else {
      const key = renderKey(part);
      out += out.length === 0 || key.startsWith("[") ? key : `.${key}`;
    }
  }
  return out;
}

function claim(path: DataPath, value: string): string {
  const name = renderPath(path);
  return name.length === 0 ? value : `${name}: ${value}`;
}

/** Children of a container in order, or undefined for a scalar. */
function childrenOf(value: unknown): [string | number, unknown][] | undefined {
  if (Array.isArray(value)) return value.map((v, i) => [i, v]);
  if (isScalar(value) || typeof value !== "object" || value === null) return undefined;
  return Object.entries(value);
}

/** The "path: value" texts of every scalar leaf under `value`, in order, within `budget`. */
export function leafTexts(value: unknown, path: DataPath, budget: ClaimBudget): string[] {
  const out: string[] = [];
  if (value === undefined) return out;
  const stack: [DataPath, unknown][] = [[path, value]];
  for (let next = stack.pop(); next !== undefined && budget.left > out.length; next = stack.pop()) {
    const [at, current] = next;
    const children = childrenOf(current);
    if (children === undefined) {
      out.push(claim(at, renderScalar(current)));
    } else if (children.length === 0) {
      out.push(claim(at, Array.isArray(current) ? "[]" : "{}"));
    } else if (Array.isArray(current) && current.every(isScalar)) {
      out.push(claim(at, current.map(renderScalar).join(", ")));
    } else if (at.length - path.length >= MAX_DATA_DEPTH) {
      out.push(claim(at, Array.isArray(current) ? "[…]" : "{…}"));
    } else {
      for (let i = children.length - 1; i >= 0; i--) {
        const [key, child] = children[i] as [string | number, unknown];
        stack.push([[...at, key], child]);
      }
    }
  }
  budget.left -= out.length;
  return out;
}

/** One claim per scalar leaf, each cut to the cell cap. */
export function leafClaims(value: unknown, path: DataPath, budget: ClaimBudget): string[] {
  return leafTexts(value, path, budget).flatMap(capCellText);
}
