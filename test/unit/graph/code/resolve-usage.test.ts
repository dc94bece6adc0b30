import { describe, expect, it } from "vitest";
import { UsageResolver } from "../../../../src/graph/code/resolve-usage.js";
import type { ImportBinding } from "../../../../src/store/code/file-imports.js";
import type { SymbolCandidate } from "../../../../src/store/code/symbols.js";

const sym = (symbolId: string, fileId: string, name: string, depth = 0): SymbolCandidate => ({ symbolId, fileId, name, depth });
const bind = (localName: string, importedName: string, keyMode: ImportBinding["keyMode"], targetFileIds: string[] = []): ImportBinding => ({
  fileId: "app", localName, importedName, keyMode, line: 1, targetFileIds,
});

describe("UsageResolver", () => {
  const candidates = [
    sym("s_util_helper", "util", "helper"),
    sym("s_other_helper", "other", "helper"),
    sym("s_app_local", "app", "local"),
    sym("s_lib_local", "lib", "local"),
    sym("s_only", "lib", "only"),
    sym("s_nested_run", "util", "run", 1),
    sym("s_top_run", "other", "run"),
  ];

  it("follows an import to its target file, by the imported name", () => {
    const r = new UsageResolver([bind("h", "helper", "exact", ["util"])], candidates);
    expect(r.resolve({ fileId: "app", name: "h" })).toEqual({ symbolId: "s_util_helper", ambiguous: false });
  });

  it("prefers the file's own declarations, then the project's; several make it ambiguous", () => {
    const r = new UsageResolver([], candidates);
    expect(r.resolve({ fileId: "app", name: "local" })).toEqual({ symbolId: "s_app_local", ambiguous: false });
    expect(r.resolve({ fileId: "app", name: "only" })).toEqual({ symbolId: "s_only", ambiguous: false });
    expect(r.resolve({ fileId: "app", name: "helper" })).toEqual({ symbolId: null, ambiguous: true });
    expect(r.resolve({ fileId: "app", name: "missing" })).toEqual({ symbolId: null, ambiguous: false });
  });

  it("leaves names from outside the project unresolved, even when the project declares one", () => {
    const r = new UsageResolver([bind("only", "only", "external"), bind("helper", "helper", "suffix")], candidates);
    expect(r.resolve({ fileId: "app", name: "only" })).toEqual({ symbolId: null, ambiguous: false });
    expect(r.resolve({ fileId: "app", name: "helper" })).toEqual({ symbolId: null, ambiguous: false });
  });

  it("falls back to the name, top-level first, when the target is unread or re-exports", () => {
    const r = new UsageResolver([bind("run", "run", "exact"), bind("only", "only", "exact", ["util"])], candidates);
    expect(r.resolve({ fileId: "app", name: "run" })).toEqual({ symbolId: "s_top_run", ambiguous: false });
    expect(r.resolve({ fileId: "app", name: "only" })).toEqual({ symbolId: "s_only", ambiguous: false });
  });

  it("a namespace import names no declaration; a default import names its target's default export", () => {
    const bindings = [bind("ns", "*", "exact", ["util"]), bind("d", "default", "exact", ["util"]), bind("e", "default", "exact", ["other"])];
    const r = new UsageResolver(bindings, candidates, [sym("s_util_default", "util", "main")]);
    expect(r.resolve({ fileId: "app", name: "ns" })).toEqual({ symbolId: null, ambiguous: false });
    expect(r.resolve({ fileId: "app", name: "d" })).toEqual({ symbolId: "s_util_default", ambiguous: false });
    expect(r.resolve({ fileId: "app", name: "e" })).toEqual({ symbolId: null, ambiguous: false });
  });
});
