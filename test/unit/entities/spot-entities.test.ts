import { describe, expect, it } from "vitest";
import type { EntityMention, SpotInput } from "../../../src/entities/spot-entities.js";
import { spotEntities } from "../../../src/entities/spot-entities.js";

function spot(text: string, extra: Partial<SpotInput> = {}): EntityMention[] {
  return spotEntities({ text, isHeading: false, headingPath: [], factionType: "text", ...extra });
}

/** Confident mentions as `name → kind`. */
function confident(text: string, extra: Partial<SpotInput> = {}): Record<string, string> {
  return Object.fromEntries(spot(text, extra).filter((m) => m.hint === undefined && m.aliasOf === undefined).map((m) => [m.name, m.kind]));
}

describe("spotEntities: names from the English tagger", () => {
  it.each([
    ["We met Barack Obama in Paris last week.", { "Barack Obama": "person", Paris: "place" }],
    ["Google and Microsoft announced a partnership.", { Google: "organization", Microsoft: "organization" }],
    ["She moved to Berlin, Germany in 2019.", { Berlin: "place", Germany: "place" }],
    ["Thanks to the Apache Software Foundation.", { "Apache Software Foundation": "organization" }],
    ["Published by O'Reilly & Associates, Inc. in 1996.", { "O'Reilly & Associates Inc": "organization" }],
    ["Written by Jane Smith and John Doe.", { "Jane Smith": "person", "John Doe": "person" }],
  ])("%s", (text, expected) => {
    expect(confident(text)).toEqual(expected);
  });

  it("reads capitalised multi-word names and lists of products", () => {
    expect(confident("It works on Cloudflare Workers, Fastly Compute, Deno, AWS Lambda, Lambda@Edge, and Node.js.")).toEqual({
      "Cloudflare Workers": "product",
      "Fastly Compute": "product",
      Deno: "product",
      "AWS Lambda": "product",
      "Lambda@Edge": "product",
      "Node.js": "product",
    });
  });

  it("takes brand spellings, versioned names and acronyms as products", () => {
    expect(confident("Works with iPhone and macOS, and libSQL too.")).toEqual({ iPhone: "product", macOS: "product", libSQL: "product" });
    expect(confident("Upgrade to Python 3.12 before the release.")).toEqual({ Python: "product" });
    expect(confident("Contributions are licensed under GPLv3 and stored in JSR.")).toEqual({ GPLv3: "concept", JSR: "product" });
  });

  it("recognises events by their cue word or year", () => {
    expect(confident("The talk was given at the React conference in Amsterdam.")).toEqual({ "React conference": "event", Amsterdam: "place" });
    expect(confident("See you at JSConf 2024!")).toEqual({ "JSConf 2024": "event" });
  });

  it("marks people in an Authors section and after 'by'", () => {
    expect(confident("Yusuke Wada https://github.com/yusukebe", { headingPath: ["Authors"] })).toEqual({ "Yusuke Wada": "person" });
    expect(confident("The routers are created by Taku Amano.")).toEqual({ "Taku Amano": "person" });
    expect(confident("Taken from a book by Bradford Nichols, Dick Buttlar & Jacqueline Proulx Farrell.")).toEqual({
      "Bradford Nichols": "person",
      "Dick Buttlar": "person",
      "Jacqueline Proulx Farrell": "person",
    });
  });

  it("keeps a quoted title whole", () => {
    expect(confident('Cases are taken from "Pthreads Programming" by its authors.')).toEqual({ "Pthreads Programming": "product" });
  });

  it("splits names joined by '&' or '/' unless they form an organisation", () => {
    expect(confident("Works with Turso AI & Vector Search.")).toMatchObject({ "Vector Search": "concept" });
    expect(confident("Reads CSV/TSV files.")).toEqual({ CSV: "concept", TSV: "product" });
  });

  it("does not trust a capital that only opens a sentence", () => {
    const mentions = spot("Valgrind runs on Linux.");
    expect(mentions.find((m) => m.name === "Valgrind")?.hint).toBe("sentence-start");
    expect(confident("Valgrind runs on Linux.")).toEqual({ Linux: "product" });
    expect(confident("Traditionally, builds ran as root.")).toEqual({});
    expect(confident("Batteries Included - Hono has middleware.")).not.toHaveProperty("Included");
  });

  it("drops function words, generic words, numbers, addresses and emphasis", () => {
    expect(confident("Example: 42 items at https://example.com or mail bob@example.com.")).toEqual({});
    expect(confident("Note that This is just an Overview.")).toEqual({});
    expect(confident("Packages should be written so that they DO NOT BREAK; they MUST NOT fail.")).toEqual({});
    expect(confident("Join us on Discord to get help using this SDK and its APIs.")).toEqual({ Discord: "product" });
    expect(confident("The talk was in Japanese, see the Blog, X, and others.")).toEqual({});
  });

  it("cuts badge rows down to their name-shaped words", () => {
    expect(confident("GitHub Workflow Status GitHub npm npm JSR Bundle Size Bundle Size GitHub last commit codecov Discord badge")).toEqual({
      GitHub: "organization",
      JSR: "product",
      Discord: "product",
    });
  });

  it("spots lower-case programs by a version, an option or a command word", () => {
    expect(confident("The dpkg 1.19.0 release fixed it; dpkg-deb --build works.")).toMatchObject({ dpkg: "product", "dpkg-deb": "product" });
    expect(confident("All other debhelper commands will skip it.")).toEqual({ debhelper: "product" });
    expect(confident("Looking for the serverless package or multi-threaded programs?")).toEqual({});
  });
});

describe("spotEntities: cells of each kind", () => {
  it("answers nothing for an empty cell", () => {
    expect(spot("   ")).toEqual([]);
  });

  it("reads a heading for its subject only", () => {
    expect(spot("Installing Hono", { isHeading: true, factionType: "heading" })).toEqual([{ name: "Hono", kind: "product", source: "heading" }]);
    expect(spot("Usage", { isHeading: true, factionType: "heading" })).toEqual([]);
  });

  it("reads a code block's whole fenced text when the span is given", () => {
    const factionText = '```ts\nimport { createClient } from "@libsql/client";\nconst c = createClient({ syncUrl: "x" });\nawait c.batch([]);\n```';
    const names = spot("import { createClient } from \"@libsql/client\";", { factionType: "code_block", factionText }).map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(["@libsql/client", "createClient", "syncUrl", "c.batch"]));
  });

  it("keeps one mention per name, the most telling one", () => {
    const mentions = spot("RegExpRouter, SmartRouter, and PatternRouter are fast.");
    expect(mentions.map((m) => `${m.name}:${m.kind}:${m.source}`)).toEqual(["RegExpRouter:symbol:code", "SmartRouter:symbol:code", "PatternRouter:symbol:code"]);
  });

  it("takes backticked spans from the raw span text when the cell text lost them", () => {
    const mentions = spot("The hono/tiny preset is small.", { factionType: "list", factionText: "- The `hono/tiny` preset is small." });
    expect(mentions).toContainEqual({ name: "hono/tiny", kind: "symbol", source: "code" });
  });

  it("takes code elements from the raw HTML of the span", () => {
    const mentions = spot("Call createClient first.", { factionText: "<p>Call <code>createClient</code> first.</p>" });
    expect(mentions).toContainEqual({ name: "createClient", kind: "symbol", source: "code" });
  });

  it("ignores backticked spans of the span that this cell does not contain", () => {
    const mentions = spot("First sentence.", { factionText: "First sentence. Then `otherThing` follows." });
    expect(mentions.map((m) => m.name)).not.toContain("otherThing");
  });
});

describe("spotEntities: raw span text", () => {
  it("reads a very large span's raw text no more, only the cell", () => {
    const factionText = `The \`hono/tiny\` preset is small. ${"filler words ".repeat(3000)}`;
    const mentions = spot("The hono/tiny preset is small.", { factionText });
    expect(mentions.map((m) => m.name)).not.toContain("hono/tiny");
  });
});
