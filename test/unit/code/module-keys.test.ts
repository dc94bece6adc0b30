import { describe, expect, it } from "vitest";
import { fileKeysFor, importKeyFor } from "../../../src/code/module-keys.js";

describe("importKeyFor", () => {
  it.each<[string, string, string, string | undefined, { key: string | null; mode: string }]>([
    ["typescript", "src/app.ts", "./util.js", undefined, { key: "src/util", mode: "exact" }],
    ["typescript", "src/a/app.ts", "../lib", undefined, { key: "src/lib", mode: "exact" }],
    ["typescript", "src/app.ts", "./Styles.css", undefined, { key: "src/styles.css", mode: "exact" }],
    ["typescript", "app.ts", "../outside", undefined, { key: null, mode: "external" }],
    ["javascript", "src/app.js", "react", undefined, { key: null, mode: "external" }],
    ["python", "pkg/a/mod.py", ".x", "y", { key: "pkg/a/x", mode: "exact" }],
    ["python", "pkg/a/mod.py", "..b.c", "d", { key: "pkg/b/c", mode: "exact" }],
    ["python", "pkg/a/mod.py", ".", "utils", { key: "pkg/a", mode: "exact" }],
    ["python", "pkg/a/mod.py", "pkg.models", "User", { key: "pkg/models", mode: "suffix" }],
    ["java", "src/A.java", "com.acme.util", "Strings", { key: "com/acme/util/strings", mode: "suffix" }],
    ["java", "src/A.java", "java.util.Objects", "requireNonNull", { key: "java/util/objects", mode: "suffix" }],
    ["rust", "src/main.rs", "crate::units", "Meters", { key: "units", mode: "suffix" }],
    ["rust", "src/main.rs", "std::fmt", "Display", { key: null, mode: "external" }],
    ["rust", "src/a/b.rs", "super", "Registry", { key: null, mode: "unknown" }],
    ["c", "src/main.c", "queue.h", undefined, { key: "queue.h", mode: "suffix" }],
    ["cpp", "src/main.cpp", "../include/shape.hpp", undefined, { key: "include/shape.hpp", mode: "exact" }],
    ["go", "cmd/main.go", "fmt", undefined, { key: null, mode: "external" }],
    ["go", "cmd/main.go", "github.com/acme/tool/internal/store", "*", { key: "store", mode: "suffix" }],
    ["ruby", "lib/a.rb", "support/logger", undefined, { key: "support/logger", mode: "suffix" }],
    ["php", "src/A.php", "App\\Support", "Clock", { key: "app/support/clock", mode: "suffix" }],
    ["bash", "bin/run.sh", "./lib/common.sh", undefined, { key: "bin/lib/common.sh", mode: "exact" }],
    ["bash", "bin/run.sh", '$(dirname "$0")/config.sh', undefined, { key: "bin/config.sh", mode: "exact" }],
    ["bash", "bin/run.sh", "$HOME/x.sh", undefined, { key: null, mode: "unknown" }],
    ["csharp", "src/A.cs", "System.Linq", undefined, { key: null, mode: "unknown" }],
  ])("%s %s imports %s (%s)", (language, from, source, name, expected) => {
    expect(importKeyFor(language, from, source, name)).toEqual(expected);
  });
});

describe("fileKeysFor", () => {
  const keys = (language: string, path: string) => fileKeysFor(language, path).map((k) => `${k.key}${k.full ? "" : "~"}`).sort();

  it("answers to the path with and without extension, and every tail", () => {
    expect(keys("typescript", "src/Util.ts")).toEqual(["src/util", "src/util.ts", "util.ts~", "util~"]);
  });

  it("an index file also answers to its folder", () => {
    expect(keys("typescript", "src/late/index.ts")).toContain("src/late");
    expect(keys("python", "pkg/models/__init__.py")).toContain("pkg/models");
    expect(keys("rust", "src/units/mod.rs")).toContain("units~");
    expect(keys("javascript", "index.js")).toEqual(["index", "index.js"]);
  });

  it("a Go file answers to its package folder", () => {
    expect(keys("go", "internal/store/db.go")).toContain("internal/store");
    expect(keys("go", "internal/store/db.go")).toContain("store~");
  });
});
