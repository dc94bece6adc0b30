import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MENTION_KINDS } from "../../../src/entities/entity-mention.js";
import { resolveMentions } from "../../../src/entities/resolve-mentions.js";
import { spotEntities } from "../../../src/entities/spot-entities.js";

const FACTION_TYPES = ["text", "list", "table", "heading", "code_block"] as const;
/** Text made of pieces that exercise the rules: names, code, punctuation, definitions. */
const pieces = fc.constantFrom(
  "Hono", "is a", "web framework", "(MCP)", "Model Context Protocol", ", also called", "`parseConfig`", "app.request()",
  "dh_testroot", "--root-command", "@scope/pkg", "The", "&", "Inc.", "by", "Jane Smith", "2024", "1.19.0", "conference",
  "«", "»", "\"", "(", ")", "/", "-", ".", ",", ";", ":", "\n", "```", "é", "🔥", "CSV/TSV", "C++", "x",
);
const text = fc.oneof(fc.string({ maxLength: 200 }), fc.array(pieces, { maxLength: 40 }).map((p) => p.join(" ")));

describe("spotEntities on any input", () => {
  it("answers well-formed mentions, and resolution keeps a backing cell for each entity", () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...FACTION_TYPES), fc.option(text, { nil: undefined }), (cellText, factionType, factionText) => {
        const mentions = spotEntities({ text: cellText, isHeading: factionType === "heading", headingPath: [], factionType, factionText });
        for (const m of mentions) {
          expect(m.name.trim().length).toBeGreaterThan(1);
          expect(MENTION_KINDS).toContain(m.kind);
        }
        const entities = resolveMentions(mentions.map((mention, i) => ({ cell: i % 3, mention })));
        for (const e of entities) expect(e.cells.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
