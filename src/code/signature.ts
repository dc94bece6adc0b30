/**
 * The header of a declaration: its text up to where the body opens, with
 * whitespace collapsed. A signature never carries a body; a value or type
 * alias keeps only its first line; anything long is clipped.
 */
import type { Node } from "web-tree-sitter";
import type { DeclarationKind } from "./code-facts.js";

/** Longest signature kept, in characters, before an ellipsis. */
export const MAX_SIGNATURE_CHARS = 300;

// Node types that open a declaration's body, across the supported grammars.
const BODY_TYPES = new Set([
  "statement_block",
  "class_body",
  "interface_body",
  "enum_body",
  "block",
  "compound_statement",
  "declaration_list",
  "field_declaration_list",
  "enum_variant_list",
  "enumerator_list",
  "accessor_list",
  "arrow_expression_clause",
  "body_statement",
  "do_group",
  "interface_type",
  "enum_member_declaration_list",
  "constructor_body",
  "enum_declaration_list",
  "record_declaration_body",
  "function_body",
  "enum_class_body",
  "protocol_body",
  "template_body",
  "do_block",
  "class_declarations",
  "instance_declarations",
  "fields",
  "struct_declaration",
  "enum_declaration",
  "union_declaration",
  "opaque_declaration",
]);
// Bodies whose opening brace sits inside the node rather than at its start (Zig's `struct { ... }`).
const BRACE_INSIDE = new Set(["interface_type", "struct_declaration", "enum_declaration", "union_declaration", "opaque_declaration"]);
// Values keep their declaration line; a type alias keeps its first line (its value can run for pages).
const VALUE_KINDS = new Set<DeclarationKind>(["variable", "constant", "property", "field"]);
const FIRST_LINE_KINDS = new Set<DeclarationKind>([...VALUE_KINDS, "type"]);
// C typedefs put the body before the name.
const TYPE_KINDS = new Set<DeclarationKind>(["type", "struct", "enum"]);
const MAX_DEPTH = 2;

/** Breadth-first search for the shallowest body opening after `after`. */
function findBody(root: Node, after: number): Node | undefined {
  let level: Node[] = [root];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: Node[] = [];
    for (const parent of level) {
      const field = parent.childForFieldName("body");
      if (field && field.endIndex > after) return field;
      for (const child of parent.namedChildren) {
        if (!child || child.endIndex <= after) continue;
        if (BODY_TYPES.has(child.type)) return child;
        next.push(child);
      }
    }
    level = next;
  }
  return undefined;
}

function bodyStart(body: Node): number {
  if (!BRACE_INSIDE.has(body.type)) return body.startIndex;
  const brace = body.text.indexOf("{");
  return brace < 0 ? body.startIndex : body.startIndex + brace;
}

/** End of the line holding `from`, but no further than `limit` (and never megabytes away). */
function lineEnd(source: string, from: number, limit: number): number {
  const capped = Math.min(limit, from + MAX_SIGNATURE_CHARS * 4);
  const newline = source.indexOf("\n", from);
  return newline < 0 ? capped : Math.min(newline, capped);
}

/** Whether a value's line could hold a body (`=> expr`, `{ get; }`); most never do, and the search is costly. */
function opensBodyOnLine(source: string, from: number, limit: number): boolean {
  const rest = source.slice(from, lineEnd(source, from, limit));
  return rest.includes("{") || rest.includes("=>");
}

function trimEnd(text: string): string {
  return text.replace(/[\s;,]+$/, "");
}

function clip(text: string, max: number): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length <= max ? collapsed : `${collapsed.slice(0, max - 1).trimEnd()}…`;
}

function header(source: string, outer: Node, body: Node | undefined, name: Node, end: number): string {
  if (body && body.endIndex <= name.startIndex) {
    // The body comes before the name (`typedef struct {…} name_t`): elide it.
    const before = source.slice(outer.startIndex, Math.min(bodyStart(body), outer.startIndex + MAX_SIGNATURE_CHARS * 2));
    return `${before} {…} ${source.slice(body.endIndex, Math.min(end, body.endIndex + MAX_SIGNATURE_CHARS * 2))}`;
  }
  // Minified sources can put megabytes on one line: never copy more than the clip needs.
  return source.slice(outer.startIndex, Math.min(end, outer.startIndex + MAX_SIGNATURE_CHARS * 4));
}

/**
 * Header text of a declaration.
 * @param node the declaration node
 * @param outer the outermost wrapper (export, decorators, template) where the header starts
 * @param name the declaration's name node; a body is looked for after it
 */
export function signatureOf(node: Node, outer: Node, kind: DeclarationKind, name: Node, source: string): string {
  if (VALUE_KINDS.has(kind) && !opensBodyOnLine(source, name.endIndex, node.endIndex)) {
    return clip(trimEnd(source.slice(outer.startIndex, lineEnd(source, name.endIndex, node.endIndex))), MAX_SIGNATURE_CHARS);
  }
  const body = findBody(node, name.endIndex) ?? (TYPE_KINDS.has(kind) ? findBody(node, -1) : undefined);
  let end = body && body.startIndex >= name.endIndex ? bodyStart(body) : node.endIndex;
  if (FIRST_LINE_KINDS.has(kind)) end = lineEnd(source, name.endIndex, end);
  return clip(trimEnd(header(source, outer, body, name, end)), MAX_SIGNATURE_CHARS);
}
