import { describe, expect, it } from "vitest";
import { CODE_LANGUAGES, languageForPath } from "../../../src/code/languages.js";
import { codeParser } from "../../../src/code/parser-runtime.js";

describe("languages", () => {
  it("map file paths to language ids", () => {
    expect(languageForPath("src/a.ts")).toBe("typescript");
    expect(languageForPath("lib/types.d.ts")).toBe("typescript");
    expect(languageForPath("App.TSX")).toBe("tsx");
    expect(languageForPath("x.mjs")).toBe("javascript");
    expect(languageForPath("a/b.py")).toBe("python");
    expect(languageForPath("main.go")).toBe("go");
    expect(languageForPath("lib.rs")).toBe("rust");
    expect(languageForPath("A.java")).toBe("java");
    expect(languageForPath("q.h")).toBe("c");
    expect(languageForPath("q.hpp")).toBe("cpp");
    expect(languageForPath("P.cs")).toBe("csharp");
    expect(languageForPath("Rakefile.rake")).toBe("ruby");
    expect(languageForPath("index.php")).toBe("php");
    expect(languageForPath("run.sh")).toBe("bash");
    expect(languageForPath("src/Main.kt")).toBe("kotlin");
    expect(languageForPath("build.gradle.kts")).toBe("kotlin");
    expect(languageForPath("Codec.scala")).toBe("scala");
    expect(languageForPath("View.swift")).toBe("swift");
    expect(languageForPath("XMonad/Core.hs")).toBe("haskell");
    expect(languageForPath("lib/plug.ex")).toBe("elixir");
    expect(languageForPath("mix.exs")).toBe("elixir");
    expect(languageForPath("init.lua")).toBe("lua");
    expect(languageForPath("build.zig")).toBe("zig");
    expect(languageForPath("README.md")).toBeUndefined();
    expect(languageForPath(".bashrc")).toBeUndefined();
    expect(languageForPath("Makefile")).toBeUndefined();
  });

  it("have unique ids and extensions", () => {
    const ids = CODE_LANGUAGES.map((language) => language.id);
    expect(new Set(ids).size).toBe(ids.length);
    const extensions = CODE_LANGUAGES.flatMap((language) => language.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
  });

  it("load every grammar and compile every query once", async () => {
    for (const language of CODE_LANGUAGES) {
      const first = await codeParser.load(language);
      expect(await codeParser.load(language)).toBe(first);
      const tree = first.parse("");
      expect(tree).toBeDefined();
      tree?.delete();
    }
  });
});
