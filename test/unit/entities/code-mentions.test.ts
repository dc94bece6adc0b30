import { describe, expect, it } from "vitest";
import { codeSpanMention, codeSpans, codeWordMention, isCodeTypeName } from "../../../src/entities/code-mentions.js";

describe("codeSpanMention", () => {
  it.each([
    ["parseConfig", "parseConfig", "symbol"],
    ["app.request()", "app.request", "symbol"],
    ["Foo.bar", "Foo.bar", "symbol"],
    ["new Hono()", "Hono", "symbol"],
    ["createClient(config)", "createClient", "symbol"],
    ["hono/tiny", "hono/tiny", "symbol"],
    ["process.env.DATABASE_URL", "DATABASE_URL", "symbol"],
    ["@libsql/client", "@libsql/client", "product"],
    ["--root-owner-group", "--root-owner-group", "concept"],
    ["Greeter#greet", "Greeter#greet", "symbol"],
  ])("`%s` → %s (%s)", (span, name, kind) => {
    expect(codeSpanMention(span)).toEqual({ name, kind, source: "code" });
  });

  it.each(["x", "true", "null", "the", "npm install hono", "config.json", "https://hono.dev", "42", "a + b", "console.log", "Array#map", "make", "yes"])("`%s` names nothing", (span) => {
    expect(codeSpanMention(span)).toBeUndefined();
  });
});

describe("codeWordMention", () => {
  it.each([
    ["parseConfig", "parseConfig", "symbol"],
    ["syncUrl", "syncUrl", "symbol"],
    ["parseHTTPHeader", "parseHTTPHeader", "symbol"],
    ["dh_testroot", "dh_testroot", "symbol"],
    ["DEB_GAIN_ROOT_CMD", "DEB_GAIN_ROOT_CMD", "symbol"],
    ["app.request()", "app.request", "symbol"],
    ["Foo.bar", "Foo.bar", "symbol"],
    ["RegExpRouter", "RegExpRouter", "symbol"],
    ["GreeterOptions", "GreeterOptions", "symbol"],
    ["fakeroot(1)", "fakeroot", "product"],
    ["@tursodatabase/serverless", "@tursodatabase/serverless", "product"],
    ["-r/--root-command", "--root-command", "concept"],
    ["dpkg/target-subcommand", "dpkg/target-subcommand", "concept"],
    ["dpkg/target/<target-name>", "dpkg/target/<target-name>", "concept"],
  ])("%s → %s (%s)", (word, name, kind) => {
    expect(codeWordMention(word)).toEqual({ name, kind, source: "code" });
  });

  it.each(["GitHub", "JavaScript", "iPhone", "macOS", "libSQL", "Node.js", "hono.dev", "docs/MIGRATION.md", "valgrind.h", "e.g", "and/or", "owner/group", "https://github.com/x", "plain", "Hono"])(
    "%s is no code name",
    (word) => {
      expect(codeWordMention(word)).toBeUndefined();
    },
  );
});

describe("isCodeTypeName", () => {
  it("tells type names from brands by their last word", () => {
    expect(isCodeTypeName("SmartRouter")).toBe(true);
    expect(isCodeTypeName("HTTPClient")).toBe(true);
    expect(isCodeTypeName("GitHub")).toBe(false);
    expect(isCodeTypeName("Router")).toBe(false);
  });
});

describe("codeSpans", () => {
  it("finds single and double backtick spans on one line", () => {
    expect(codeSpans("Call `foo()` or ``bar`baz`` but not `\nbroken`.")).toEqual(["foo()", "bar`baz"]);
  });

  it("finds HTML code elements", () => {
    expect(codeSpans('<p>Use <code class="x">createClient</code> and <code>a &lt; b</code>.</p>')).toEqual(["createClient", "a < b"]);
  });
});
