import { describe, expect, it } from "vitest";
import { resolveMentions } from "../../../src/entities/resolve-mentions.js";
import type { LocatedMention } from "../../../src/entities/resolve-mentions.js";
import { spotEntities } from "../../../src/entities/spot-entities.js";
import { markdownReader } from "../../../src/readers/markdown/markdown-reader.js";

async function entitiesOf(markdown: string) {
  const output = await markdownReader.read({ path: "doc.md", contentType: "text/markdown", bytes: new TextEncoder().encode(markdown) });
  const located: LocatedMention<number>[] = [];
  output.cells.forEach((cell, index) => {
    const faction = output.factions[cell.faction];
    if (faction === undefined) return;
    const input = { text: cell.text, isHeading: faction.factionType === "heading", headingPath: faction.headingPath, factionType: faction.factionType, factionText: faction.text };
    for (const mention of spotEntities(input)) located.push({ cell: index, mention });
  });
  return { cells: output.cells, entities: resolveMentions(located) };
}

const DOC = `# Installing Hono

Hono is a small web framework. It runs on Deno and Node.js.

The Model Context Protocol (MCP) links tools to models. Servers speak MCP over stdio.

## Rate limits

Rate limits protect the server; call \`app.request()\` or \`parseConfig\` to test them.

\`\`\`ts
import { parseConfig } from "./config";
\`\`\`

## Authors

Yusuke Wada
`;

describe("spotting and resolving a Markdown document", () => {
  it("finds each entity once, with the cells that back it", async () => {
    const { cells, entities } = await entitiesOf(DOC);
    const byName = new Map(entities.map((e) => [e.name, e]));
    expect([...byName.keys()].sort()).toEqual(
      ["Deno", "Hono", "Model Context Protocol", "Node.js", "Yusuke Wada", "app.request", "parseConfig", "rate limit", "web framework"].sort(),
    );
    expect(byName.get("Hono")?.kind).toBe("product");
    expect(byName.get("Model Context Protocol")).toMatchObject({ kind: "concept", aliases: ["MCP"] });
    expect(byName.get("parseConfig")?.kind).toBe("symbol");
    expect(byName.get("Yusuke Wada")?.kind).toBe("person");
    for (const entity of entities) {
      expect(entity.cells.length).toBeGreaterThan(0);
      for (const cell of entity.cells) expect(cells[cell]).toBeDefined();
    }
    expect(byName.get("parseConfig")?.cells).toHaveLength(2);
    expect(byName.get("Model Context Protocol")?.cells).toHaveLength(2);
  });
});
