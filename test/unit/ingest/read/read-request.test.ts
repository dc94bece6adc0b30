import { describe, expect, it } from "vitest";
import { factionHash } from "../../../../src/ingest/read/faction-hash.js";
import { readRequest } from "../../../../src/ingest/read/pool/read-request.js";
import { readers } from "../../../../src/readers/index.js";

const encode = (text: string) => new TextEncoder().encode(text);

describe("one reading, as a reader thread does it", () => {
  it("answers each faction's content hash beside the reading, the hash persisting would work out", async () => {
    const text = "# Title\n\nFirst paragraph about Alice.\n\n## Part\n\n- one\n- two\n\n```ts\nconst a = 1;\n```\n";
    const answer = await readRequest(readers, { path: "doc.md", contentType: "text/markdown", bytes: encode(text), includeSecret: false });
    expect(answer.type).toBe("done");
    if (answer.type !== "done") return;
    expect(answer.output.factions.length).toBeGreaterThan(2);
    expect(answer.factionHashes).toEqual(answer.output.factions.map(factionHash));
    expect(answer.carried["document-entities"]).toBeDefined();
  });

  it("code gets its hashes too, and no spotted entities", async () => {
    const answer = await readRequest(readers, {
      path: "a.ts",
      contentType: "text/typescript",
      bytes: encode("/** Adds. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n"),
      includeSecret: false,
    });
    expect(answer.type).toBe("done");
    if (answer.type !== "done") return;
    expect(answer.factionHashes).toEqual(answer.output.factions.map(factionHash));
    expect(answer.carried["document-entities"]).toBeUndefined();
  });
});
