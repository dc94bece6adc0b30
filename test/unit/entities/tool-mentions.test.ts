import { describe, expect, it } from "vitest";
import { textTokens } from "../../../src/entities/text-tokens.js";
import { toolMentions } from "../../../src/entities/tool-mentions.js";
import { tagWords } from "../../../src/entities/word-tags.js";

function tools(text: string): string[] {
  return toolMentions(textTokens(text), tagWords(text)).map((m) => m.name);
}

describe("toolMentions", () => {
  it.each([
    ["Starting with dpkg 1.19.0 the name changed.", ["dpkg"]],
    ["dpkg-deb --build provides the option.", ["dpkg-deb"]],
    ['The dpkg-buildpackage "-r/--root-command" option is used.', ["dpkg-buildpackage"]],
    ["All other (src:)debhelper commands will skip it.", ["debhelper"]],
    ["Run the rustdoc tool on it.", ["rustdoc"]],
  ])("%s", (text, expected) => {
    expect(tools(text)).toEqual(expected);
  });

  it.each([
    "Looking for the Turso serverless package?",
    "It helps your multi-threaded programs.",
    "An experimental basic block vector generation tool.",
    "The build command runs it.",
    "Use version 1.2.3 now.",
    "Then dpkg. 1.19.0 was out.",
  ])("%s names no program", (text) => {
    expect(tools(text)).toEqual([]);
  });
});
