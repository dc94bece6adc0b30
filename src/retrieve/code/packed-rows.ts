import type { DeclarationBrief } from "../../store/code/declaration-reads.js";

/** One declaration of a pack: its header only, never its body. */
export interface PackedDeclaration {
  symbol: string;
  symbolId: string;
  kind: string;
  fileId: string;
  filepath: string;
  lines: [number, number];
  body: string;
}

/**
 * Why a file is in a pack: the task matches it, it is reached over
 * references or imports, it tests a packed declaration, or it is a copy
 * (same content, imports aside) of the file named in `duplicateOf`.
 */
export type FileReason = "match" | "referenced" | "imports" | "test" | "duplicate";

export interface PackedFile {
  fileId: string;
  filepath: string;
  reason: FileReason;
  /** For a `duplicate`: the project path of the file kept in its place. */
  duplicateOf?: string;
}

/** Longest header shown; a longer one is cut with an ellipsis. */
const MAX_HEADER_CHARS = 400;

function header(signature: string): string {
  const flat = signature.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_HEADER_CHARS ? flat : `${flat.slice(0, MAX_HEADER_CHARS - 1).trimEnd()}…`;
}

/** The pack row of a declaration: qualified name, ids, place and header. */
export function packedDeclaration(d: DeclarationBrief): PackedDeclaration {
  return {
    symbol: d.qualifiedName,
    symbolId: d.symbolId,
    kind: d.kind,
    fileId: d.fileId,
    filepath: d.path,
    lines: [d.lineStart, d.lineEnd],
    body: header(d.signature),
  };
}
