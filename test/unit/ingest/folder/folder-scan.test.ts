import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_BINARY_BYTES, MAX_FILE_BYTES, isWithin, scanFolder } from "../../../../src/ingest/folder/folder-scan.js";

describe("scanFolder", () => {
  let root: string;
  let outside: string;
  const put = (path: string, content: string | Uint8Array = "x") => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  const paths = async (options = {}) => (await scanFolder(root, options)).files.map((f) => f.path);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "pks-scan-"));
    outside = mkdtempSync(join(tmpdir(), "pks-outside-"));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("lists files as sorted POSIX paths with size and mtime, leaving excluded ones out", async () => {
    put("src/app.ts", "export {};\n");
    put("README.md");
    put("node_modules/dep/index.js");
    put("dist/bundle.js");
    put(".git/HEAD");
    put(".pks/pks.db");
    put("debug.log");
    put(".gitignore", "*.log\n");
    put("pkg/.gitignore", "secret-notes.md\n");
    put("pkg/secret-notes.md");
    put("pkg/sub/secret-notes.md");
    put("other/secret-notes.md");
    const scan = await scanFolder(root);
    expect(scan.files.map((f) => f.path)).toEqual([
      ".gitignore", "README.md", "other/secret-notes.md", "pkg/.gitignore", "src/app.ts",
    ]);
    const app = scan.files.find((f) => f.path === "src/app.ts")!;
    expect(app.absPath).toBe(join(root, "src", "app.ts"));
    expect(app.size).toBe(11);
    expect(app.mtimeMs).toBeGreaterThan(0);
    expect(scan.skipped).toEqual([]);
  });

  it("skips files over the size cap, and binaries over the smaller one", async () => {
    put("big-text.txt", "a line of text\n".repeat(Math.ceil((MAX_BINARY_BYTES * 2) / 15)));
    put("big.bin", new Uint8Array(MAX_BINARY_BYTES + 1));
    put("big.unknownext", new Uint8Array(MAX_BINARY_BYTES + 1));
    put("photo.png", new Uint8Array(MAX_BINARY_BYTES + 1));
    put("small.bin", new Uint8Array(100));
    put("huge.txt", "");
    truncateSync(join(root, "huge.txt"), MAX_FILE_BYTES + 1);
    const scan = await scanFolder(root);
    expect(scan.files.map((f) => f.path)).toEqual(["big-text.txt", "small.bin"]);
    expect(Object.fromEntries(scan.skipped.map((s) => [s.path, s.reason]))).toEqual({
      "big.bin": "binary file larger than 1 MiB",
      "big.unknownext": "binary file larger than 1 MiB",
      "photo.png": "binary file larger than 1 MiB",
      "huge.txt": "larger than 24 MiB",
    });
  });

  it("follows a link to a file inside the folder, reports one leading out, and does not walk linked folders", async () => {
    put("docs/guide.md");
    writeFileSync(join(outside, "elsewhere.md"), "x");
    symlinkSync(join(root, "docs", "guide.md"), join(root, "guide-link.md"));
    symlinkSync(join(outside, "elsewhere.md"), join(root, "out-link.md"));
    symlinkSync(join(root, "docs"), join(root, "docs-link"));
    symlinkSync(join(root, "missing.md"), join(root, "dangling.md"));
    const scan = await scanFolder(root);
    expect(scan.files.map((f) => f.path)).toEqual(["docs/guide.md", "guide-link.md"]);
    expect(scan.skipped).toEqual([{ path: "out-link.md", reason: "symbolic link leads outside the folder" }]);
  });

  it.runIf(process.platform !== "win32")("passes over FIFOs", async () => {
    put("a.md");
    execFileSync("mkfifo", [join(root, "pipe")]);
    expect(await paths()).toEqual(["a.md"]);
  });

  it.runIf(process.platform !== "win32")("reports a name with a backslash rather than have it read under another path", async () => {
    put("a.md");
    put("odd\\name.md");
    const scan = await scanFolder(root);
    expect(scan.files.map((f) => f.path)).toEqual(["a.md"]);
    expect(scan.skipped).toEqual([{ path: "odd\\name.md", reason: "name contains a backslash" }]);
  });

  it("scans only the named paths when asked, walking named folders and honouring the rules", async () => {
    put("a.md");
    put("b.md");
    put("dir/c.md");
    put("dir/sub/d.md");
    put("node_modules/x.js");
    put("dir/x.swp");
    const found = await paths({ paths: ["b.md", "dir", "dir/c.md", "gone.md", "node_modules/x.js", "dir/x.swp"] });
    expect(found).toEqual(["b.md", "dir/c.md", "dir/sub/d.md"]);
  });

  it("tells each folder before listing it", async () => {
    put("a/b/c.md");
    put("node_modules/x/y.js");
    const dirs: string[] = [];
    await scanFolder(root, { onDir: (d) => dirs.push(d) });
    expect(dirs).toEqual(["", "a", "a/b"]);
  });
});

describe("isWithin", () => {
  it("is true for a named path and anything below it", () => {
    const named = new Set(["a/b", "c"]);
    expect(isWithin("a/b", named)).toBe(true);
    expect(isWithin("a/b/x/y", named)).toBe(true);
    expect(isWithin("c/d", named)).toBe(true);
    expect(isWithin("a/bc", named)).toBe(false);
    expect(isWithin("a", named)).toBe(false);
  });
});
