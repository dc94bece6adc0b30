import { describe, expect, it } from "vitest";
import { nameKind } from "../../../src/entities/name-kind.js";
import { tagWords } from "../../../src/entities/word-tags.js";

function kindOf(name: string, sentence = `We talked about ${name} today.`, personCue = false) {
  return nameKind(name.split(" "), tagWords(sentence), { personCue });
}

describe("nameKind", () => {
  it.each([
    ["Barack Obama", "person"],
    ["Paris", "place"],
    ["Google", "organization"],
    ["Apache Software Foundation", "organization"],
    ["O'Reilly & Associates Inc", "organization"],
    ["PyCon 2024", "event"],
    ["React conference", "event"],
    ["GNU General Public License", "concept"],
    ["Gain Root API", "concept"],
    ["SQL", "concept"],
    ["GPLv3", "concept"],
    ["Cloudflare Workers", "product"],
    ["Valgrind", "product"],
    ["JSR", "product"],
  ])("%s → %s", (name, kind) => {
    expect(kindOf(name)).toBe(kind);
  });

  it("reads plain two-word names as people only with a cue", () => {
    expect(kindOf("Taku Amano", "Taku Amano wrote it.")).toBe("product");
    expect(kindOf("Taku Amano", "Written by Taku Amano.", true)).toBe("person");
    expect(kindOf("Smith Labs", "Written by Smith Labs.", true)).toBe("organization");
  });
});
