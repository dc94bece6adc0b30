import { describe, expect, it } from "vitest";
import { extractCode } from "../../../src/code/extract-code.js";
import { cleanCommentText } from "../../../src/code/doc-comment.js";

async function docs(path: string, source: string): Promise<Record<string, string | undefined>> {
  const facts = await extractCode(path, source);
  return Object.fromEntries((facts?.declarations ?? []).map((declaration) => [declaration.qualifiedName, declaration.doc]));
}

describe("doc comments", () => {
  it("strip comment markers and XML doc tags", () => {
    expect(cleanCommentText("/**\n * First line.\n * Second line.\n */")).toBe("First line.\nSecond line.");
    expect(cleanCommentText("/// <summary>Adds.</summary>")).toBe("Adds.");
    expect(cleanCommentText("# hash comment")).toBe("hash comment");
    expect(cleanCommentText("//! inner doc")).toBe("inner doc");
  });

  it("take only comments directly above, not ones after a blank line or trailing code", async () => {
    const source = [
      "// detached",
      "",
      "function a() {}",
      "const x = 1; // trailing",
      "function b() {}",
      "// one",
      "// two",
      "function c() {}",
    ].join("\n");
    expect(await docs("d.js", source)).toEqual({ a: undefined, x: undefined, b: undefined, c: "one\ntwo" });
  });

  it("skip Rust attributes between a doc comment and its item", async () => {
    const result = await docs("d.rs", "/// A point.\n#[derive(Debug)]\nstruct P { x: i32 }\n");
    expect(result.P).toBe("A point.");
  });

  it("prefer a Python docstring, dedented", async () => {
    const source = 'def f():\n    """Summary.\n\n    Details here.\n    """\n    return 1\n';
    expect((await docs("d.py", source)).f).toBe("Summary.\n\nDetails here.");
  });
});
