import { describe, expect, it } from "vitest";
import { readerFor, readers } from "../../../src/readers/index.js";

describe("readers registry", () => {
  it("tries code, then Markdown, before plain text, and runs of lines last", () => {
    expect(readers.map((r) => r.name)).toEqual(["code", "markdown", "html", "pdf", "docx", "csv", "jsonl", "config", "subtitles", "text", "lexical"]);
  });

  it.each<[string, string, string | undefined]>([
    ["README.md", "text/markdown", "markdown"],
    ["README.md", "text/plain", "markdown"],
    ["notes.txt", "text/plain", "text"],
    ["CHANGES", "application/octet-stream", "text"],
    ["docs/spec.rst", "text/x-rst", "text"],
    ["src/index.ts", "text/x-typescript", "code"],
    ["logo.png", "image/png", undefined],
    ["db/schema.sql", "application/sql", "lexical"],
    ["Dockerfile", "text/x-dockerfile", "lexical"],
    ["api/shop.proto", "application/octet-stream", "lexical"],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(readerFor({ path, contentType })?.name).toBe(expected);
  });
});
