import { describe, expect, it } from "vitest";
import { extractCode } from "../../../src/code/extract-code.js";
import { splitImportPath, unquote } from "../../../src/code/imports.js";

describe("imports", () => {
  it("split qualified paths with braces and aliases", () => {
    expect(splitImportPath("std::fmt::{self, Display as Show}")).toEqual({
      source: "std::fmt",
      names: ["self", "Display"],
      aliases: { Show: "Display" },
    });
    expect(splitImportPath("java.util.List")).toEqual({ source: "java.util", names: ["List"], aliases: {} });
    expect(splitImportPath("App\\Support\\Slugger as Slugs")).toEqual({
      source: "App\\Support",
      names: ["Slugger"],
      aliases: { Slugs: "Slugger" },
    });
    expect(splitImportPath("serde")).toEqual({ source: "serde", names: [], aliases: {} });
  });

  it("unquote specifiers", () => {
    expect(unquote('"./a.js"')).toBe("./a.js");
    expect(unquote("<stdio.h>")).toBe("stdio.h");
    expect(unquote("plain")).toBe("plain");
  });

  it("keep several modules of one Python statement apart", async () => {
    const facts = await extractCode("m.py", "import os, sys as system\nfrom . import sibling\n");
    expect(facts?.imports).toEqual([
      { source: "os", names: [], line: 1 },
      { source: "sys", names: ["*"], line: 1, aliases: { system: "*" } },
      { source: ".", names: ["sibling"], line: 2 },
    ]);
  });

  it("read re-exports and CommonJS requires as imports", async () => {
    const source = 'export { a, b as c } from "./ab.js";\nexport * from "./all.js";\nconst fs = require("node:fs");\n';
    const facts = await extractCode("index.js", source);
    expect(facts?.imports).toEqual([
      { source: "./ab.js", names: ["a", "b"], line: 1 },
      { source: "./all.js", names: ["*"], line: 2 },
      { source: "node:fs", names: ["*"], line: 3, aliases: { fs: "*" } },
    ]);
  });

  it("read Java wildcard and Go aliased imports", async () => {
    const java = await extractCode("A.java", "import java.util.*;\nimport java.io.File;\nclass A {}\n");
    expect(java?.imports).toEqual([
      { source: "java.util", names: ["*"], line: 1 },
      { source: "java.io", names: ["File"], line: 2 },
    ]);
    const go = await extractCode("a.go", 'package a\nimport (\n\tj "encoding/json"\n\t"os"\n)\n');
    expect(go?.imports).toEqual([
      { source: "encoding/json", names: ["*"], line: 3, aliases: { j: "*" } },
      { source: "os", names: [], line: 4 },
    ]);
  });
});
