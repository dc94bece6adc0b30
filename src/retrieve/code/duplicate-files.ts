import type { Queryable } from "../../store/db.js";
import { declarationShapes, filesByKeysWithCounts } from "../../store/code/code-pack-reads.js";

/** A file that repeats another: the copy and the file kept in its place. */
export interface FileCopy {
  fileId: string;
  path: string;
  canonicalFileId: string;
  canonicalPath: string;
}

/** Folders that hold built, generated, vendored or ported copies of a source tree. */
const GENERATED_DIR = /(^|\/)(dist|build|out|lib-esm|esm|cjs|umd|bundle|deno|deno_dist|denoified|generated|__generated__|gen|vendor|vendored|\.next|\.output|coverage)(\/|$)|(^|\/)[^/]*(dist|generated)[^/]*\//i;
/** Index-like file names stand for their folder: their parent folder tells them apart. */
const INDEX_NAME = /^(index|mod|__init__|main)$/;
const CODE_EXTENSION = /\.(d\.ts|[cm]?[jt]sx?|py|pyi|rb|rs|go|java|php|cs|sh|bash)$/i;

/** The key two copies of a file both answer to: the file name, with its folder for index files. */
function copyKey(path: string): string {
  const parts = path.replace(CODE_EXTENSION, "").toLowerCase().split("/");
  const name = parts.at(-1) ?? "";
  return INDEX_NAME.test(name) && parts.length > 1 ? parts.slice(-2).join("/") : name;
}

/** Which of several copies is kept: not under a generated-looking folder, then the shortest path, then the first by name. */
function canonicalOrder(a: string, b: string): number {
  const ga = GENERATED_DIR.test(a) ? 1 : 0;
  const gb = GENERATED_DIR.test(b) ? 1 : 0;
  return ga - gb || a.split("/").length - b.split("/").length || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Copies among and of these files: files whose declarations (names, kinds,
 * headers and line spans, in order) are the same as another's — their
 * content equal but for imports, which copies rewrite (`./x` → `./x.ts`).
 * Found through the file-name key both answer to, then declaration counts,
 * then the declarations. Files without declarations are never copies.
 */
export async function fileCopies(q: Queryable, projectIds: readonly string[], files: ReadonlyMap<string, string>): Promise<Map<string, FileCopy>> {
  const keys = [...new Set([...files.values()].map(copyKey))];
  const keyed = await filesByKeysWithCounts(q, projectIds, keys);
  const countsOf = new Map<string, Set<number>>();
  for (const f of keyed) if (files.has(f.fileId) && f.declarations > 0) countsOf.set(f.key, (countsOf.get(f.key) ?? new Set()).add(f.declarations));
  const candidates = keyed.filter((f) => countsOf.get(f.key)?.has(f.declarations));
  const groups = new Map<string, typeof candidates>();
  for (const f of candidates) {
    const g = `${f.key}\u0000${f.declarations}`;
    if (!groups.get(g)?.some((x) => x.fileId === f.fileId)) groups.set(g, [...(groups.get(g) ?? []), f]);
  }
  const shared = [...groups.values()].filter((g) => g.length > 1).flat();
  const out = new Map<string, FileCopy>();
  if (shared.length === 0) return out;
  const shapes = new Map<string, string[]>();
  for (const s of await declarationShapes(q, [...new Set(shared.map((f) => f.fileId))])) {
    shapes.set(s.fileId, [...(shapes.get(s.fileId) ?? []), `${s.qualifiedName}\u0001${s.kind}\u0001${s.lineSpan}\u0001${s.signature}`]);
  }
  const byShape = new Map<string, Array<{ fileId: string; path: string }>>();
  for (const f of new Map(shared.map((x) => [x.fileId, x])).values()) {
    const shape = shapes.get(f.fileId)?.join("\u0002");
    if (shape) byShape.set(shape, [...(byShape.get(shape) ?? []), { fileId: f.fileId, path: f.path }]);
  }
  for (const same of byShape.values()) {
    if (same.length < 2) continue;
    const [kept, ...copies] = [...same].sort((a, b) => canonicalOrder(a.path, b.path));
    for (const c of copies) out.set(c.fileId, { fileId: c.fileId, path: c.path, canonicalFileId: kept!.fileId, canonicalPath: kept!.path });
  }
  return out;
}
