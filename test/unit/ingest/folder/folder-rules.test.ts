import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FolderRules, isNeverSynced, rebaseRule } from "../../../../src/ingest/folder/folder-rules.js";

describe("rebaseRule", () => {
  it("anchors patterns with an inner slash to their folder and lets the rest match at any depth", () => {
    expect(rebaseRule("*.log", "a")).toBe("a/**/*.log");
    expect(rebaseRule("build/", "a/b")).toBe("a/b/**/build/");
    expect(rebaseRule("/only-here.md", "a")).toBe("a/only-here.md");
    expect(rebaseRule("docs/*.md", "a")).toBe("a/docs/*.md");
    expect(rebaseRule("**/gen", "a")).toBe("a/**/gen");
    expect(rebaseRule("!keep.log", "a")).toBe("!a/**/keep.log");
    expect(rebaseRule("!/top.txt", "a")).toBe("!a/top.txt");
  });

  it("drops blanks and comments and keeps escapes", () => {
    expect(rebaseRule("", "a")).toBe("");
    expect(rebaseRule("   ", "a")).toBe("");
    expect(rebaseRule("# note", "a")).toBe("");
    expect(rebaseRule("\\#literal", "a")).toBe("a/**/\\#literal");
    expect(rebaseRule("\\!bang", "a")).toBe("a/**/\\!bang");
  });

  it("makes folder names with glob characters literal", () => {
    expect(rebaseRule("x", "we[ird]*")).toBe("we\\[ird\\]\\*/**/x");
    expect(rebaseRule("x", "#tag")).toBe("\\#tag/**/x");
    expect(rebaseRule("x", "")).toBe("x");
  });
});

describe("FolderRules", () => {
  let root: string;
  const put = (path: string, text = "x") => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "pks-rules-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("applies the default excludes, and never syncs version control or the store", async () => {
    const rules = new FolderRules(root);
    expect(await rules.excludes("node_modules", true)).toBe(true);
    expect(await rules.excludes("a/b/dist", true)).toBe(true);
    expect(await rules.excludes("dist", false)).toBe(false);
    expect(await rules.excludes(".DS_Store", false)).toBe(true);
    expect(await rules.excludes("src/.app.ts.swp", false)).toBe(true);
    expect(await rules.excludes("src/app.ts~", false)).toBe(true);
    expect(await rules.excludes("src/app.ts", false)).toBe(false);
    expect(isNeverSynced(".git/config")).toBe(true);
    expect(isNeverSynced("sub/.pks/pks.db")).toBe(true);
    expect(isNeverSynced("src/git.ts")).toBe(false);
  });

  it("reads .gitignore at every level, relative to its folder, deeper files winning", async () => {
    put(".gitignore", "*.log\ngenerated/\n/top-only.md\n");
    put("pkg/.gitignore", "!generated/\nlocal.txt\n/anchored.md\n");
    put("pkg/inner/.pksignore", "!local.txt\n");
    const rules = new FolderRules(root);
    expect(await rules.excludes("debug.log", false)).toBe(true);
    expect(await rules.excludes("pkg/deep/debug.log", false)).toBe(true);
    expect(await rules.excludes("generated", true)).toBe(true);
    expect(await rules.excludes("pkg/generated", true)).toBe(false);
    expect(await rules.excludes("pkg/generated/types.ts", false)).toBe(false);
    expect(await rules.excludes("top-only.md", false)).toBe(true);
    expect(await rules.excludes("pkg/top-only.md", false)).toBe(false);
    expect(await rules.excludes("pkg/local.txt", false)).toBe(true);
    expect(await rules.excludes("pkg/x/local.txt", false)).toBe(true);
    expect(await rules.excludes("other/local.txt", false)).toBe(false);
    expect(await rules.excludes("pkg/inner/local.txt", false)).toBe(false);
    expect(await rules.excludes("pkg/anchored.md", false)).toBe(true);
    expect(await rules.excludes("pkg/x/anchored.md", false)).toBe(false);
  });

  it("lets an ignore file take a default exclude back, and reads .git/info/exclude", async () => {
    put(".pksignore", "!build/\n");
    put(".git/info/exclude", "private.md\n");
    const rules = new FolderRules(root);
    expect(await rules.excludes("build", true)).toBe(false);
    expect(await rules.excludes("private.md", false)).toBe(true);
    expect(await rules.excludes("node_modules", true)).toBe(true);
  });
});
