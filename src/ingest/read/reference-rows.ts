/**
 * A file's code facts as store rows: each identifier occurrence (a
 * declaration's name tied to its symbol id) and each import binding with
 * the path key it points at.
 */
import type { CodeDeclaration, CodeFacts, CodeImport, CodeReference } from "../../code/code-facts.js";
import { importKeyFor } from "../../code/module-keys.js";
import type { NewCodeReference } from "../../store/code/code-references.js";
import type { NewFileImport } from "../../store/code/file-imports.js";

/** The innermost unclaimed declaration of this name whose lines hold the reference. */
function declarationAt(candidates: readonly number[], declarations: readonly CodeDeclaration[], line: number, claimed: Set<number>) {
  let best: number | undefined;
  for (const i of candidates) {
    const [start, end] = declarations[i]!.lines;
    if (claimed.has(i) || line < start || line > end) continue;
    const span = end - start;
    if (best === undefined || span < declarations[best]!.lines[1] - declarations[best]!.lines[0]) best = i;
  }
  if (best !== undefined) claimed.add(best);
  return best === undefined ? undefined : declarations[best];
}

function usageRow(ref: CodeReference): NewCodeReference {
  return { name: ref.name, kind: ref.kind, lineStart: ref.line, lineEnd: ref.endLine, nameLine: ref.line, nameCol: ref.column, symbolId: null };
}

/**
 * Reference rows of a file. A declaration row spans its whole declaration
 * and carries its symbol id; a usage row spans its identifier.
 */
export function referenceRows(facts: CodeFacts): NewCodeReference[] {
  const byName = new Map<string, number[]>();
  facts.declarations.forEach((d, i) => {
    const list = byName.get(d.symbol);
    if (list) list.push(i);
    else byName.set(d.symbol, [i]);
  });
  const claimed = new Set<number>();
  return facts.references.map((ref) => {
    const row = usageRow(ref);
    if (ref.kind === "usage") return row;
    const declaration = declarationAt(byName.get(ref.name) ?? [], facts.declarations, ref.line, claimed);
    if (!declaration) return row;
    return { ...row, lineStart: declaration.lines[0], lineEnd: declaration.lines[1], symbolId: declaration.symbolId };
  });
}

/** Local name → imported name of each binding; names bound to nothing (re-exports) get a null local. */
function bindingsOf(imp: CodeImport): Array<{ local: string | null; imported: string }> {
  const localsOf = new Map<string, string[]>();
  for (const [local, imported] of Object.entries(imp.aliases ?? {})) localsOf.set(imported, [...(localsOf.get(imported) ?? []), local]);
  return imp.names.flatMap((imported) => {
    const locals = localsOf.get(imported);
    if (locals) return locals.map((local) => ({ local, imported }));
    const bound = imported !== "*" && imported !== "default" && imported !== "self";
    return [{ local: bound ? imported : null, imported }];
  });
}

/** Import rows of a file: one per binding, or one for an import that binds no name. */
export function importRows(facts: CodeFacts, path: string): NewFileImport[] {
  return facts.imports.flatMap((imp): NewFileImport[] => {
    const bindings = bindingsOf(imp);
    if (bindings.length === 0) {
      const key = importKeyFor(facts.language, path, imp.source);
      return [{ line: imp.line, specifier: imp.source, localName: null, importedName: null, moduleKey: key.key, keyMode: key.mode }];
    }
    return bindings.map((b) => {
      const key = importKeyFor(facts.language, path, imp.source, b.imported);
      return { line: imp.line, specifier: imp.source, localName: b.local, importedName: b.imported, moduleKey: key.key, keyMode: key.mode };
    });
  });
}
