/**
 * Which declaration a usage names. Through the file's imports first, where
 * the import's target files are known; otherwise among the file's own
 * declarations; otherwise by name across the project. Several equally good
 * candidates make the usage ambiguous; none leaves it unresolved.
 */
import type { ImportBinding } from "../../store/code/file-imports.js";
import type { SymbolCandidate } from "../../store/code/symbols.js";

/** A usage's resolution: a symbol, or null (with `ambiguous` when several matched). */
export interface Resolution {
  symbolId: string | null;
  ambiguous: boolean;
}

/** One usage: the file it is in and the identifier. */
export interface UsageSite {
  fileId: string;
  name: string;
}

const UNRESOLVED: Resolution = { symbolId: null, ambiguous: false };
/** Imported names that bind a module, not a declaration. */
const MODULE_NAMES = new Set(["*", "self"]);

function pick(candidates: readonly SymbolCandidate[]): Resolution {
  if (candidates.length === 1) return { symbolId: candidates[0]!.symbolId, ambiguous: false };
  return candidates.length > 1 ? { symbolId: null, ambiguous: true } : UNRESOLVED;
}

/** Imports only bring top-level names; nested ones are a last resort. */
function topLevelFirst(candidates: readonly SymbolCandidate[]): readonly SymbolCandidate[] {
  const top = candidates.filter((c) => c.depth === 0);
  return top.length > 0 ? top : candidates;
}

/** Resolves usages against the bindings and candidates fetched for them. */
export class UsageResolver {
  readonly #bindings = new Map<string, ImportBinding>();
  readonly #byName = new Map<string, SymbolCandidate[]>();
  readonly #defaultExports: readonly SymbolCandidate[];

  /**
   * @param bindings the import bindings of the usages' files and names
   * @param candidates live declarations under the usages' names and the names their bindings import
   * @param defaultExports the default-exported declarations of the bindings' target files
   */
  constructor(bindings: readonly ImportBinding[], candidates: readonly SymbolCandidate[], defaultExports: readonly SymbolCandidate[] = []) {
    this.#defaultExports = defaultExports;
    for (const b of [...bindings].sort((x, y) => x.line - y.line)) {
      const key = `${b.fileId}\u0000${b.localName}`;
      if (!this.#bindings.has(key)) this.#bindings.set(key, b);
    }
    for (const c of candidates) {
      const list = this.#byName.get(c.name);
      if (list) list.push(c);
      else this.#byName.set(c.name, [c]);
    }
  }

  /** The declaration a usage names, or why there is none. */
  resolve(site: UsageSite): Resolution {
    const binding = this.#bindings.get(`${site.fileId}\u0000${site.name}`);
    if (binding) return this.#viaImport(binding);
    const all = this.#byName.get(site.name) ?? [];
    const local = all.filter((c) => c.fileId === site.fileId);
    return pick(local.length > 0 ? local : all);
  }

  #viaImport(binding: ImportBinding): Resolution {
    if (MODULE_NAMES.has(binding.importedName)) return UNRESOLVED;
    if (binding.importedName === "default") {
      const targets = new Set(binding.targetFileIds);
      return pick(this.#defaultExports.filter((c) => targets.has(c.fileId)));
    }
    const all = this.#byName.get(binding.importedName) ?? [];
    if (binding.targetFileIds.length > 0) {
      const targets = new Set(binding.targetFileIds);
      const inTargets = all.filter((c) => targets.has(c.fileId));
      // Not declared in the target: re-exported from elsewhere, so fall back to the name.
      return pick(topLevelFirst(inTargets.length > 0 ? inTargets : all));
    }
    // A relative import whose file is not read (yet), or one not resolvable by path.
    if (binding.keyMode === "exact" || binding.keyMode === "unknown") return pick(topLevelFirst(all));
    return UNRESOLVED;
  }
}
