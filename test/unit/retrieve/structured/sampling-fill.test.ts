import { describe, expect, it } from "vitest";
import type { Sampler } from "../../../../src/core/endpoint.js";
import { prepareCallerSchema } from "../../../../src/retrieve/memory/caller-schema.js";
import { answerStructured } from "../../../../src/retrieve/memory/structured-answer.js";
import { checkReply, fillBySampling, SAMPLING_LIMITS } from "../../../../src/retrieve/structured/sampling-fill.js";

const rows = [
  { cellId: "c1", text: "Each key may send 1,200 requests per minute." },
  { cellId: "c2", text: "Version 2.4.0 was released on 12 March 2025." },
  { cellId: "c3", text: "The payments service is owned by Dana Reyes." },
  { cellId: "c4", text: "Log lines are written as JSON." },
  { cellId: "c5", text: "A rollback takes ten minutes." },
];
const schema = {
  type: "object",
  properties: {
    requestsPerMinute: { type: "number" },
    releaseDate: { type: "string", format: "date" },
    owner: { type: "string" },
    jsonLines: { type: "boolean" },
    rollback: { type: "string", format: "duration" },
    tags: { type: "array", items: { type: "string" } },
  },
};
const prepared = () => prepareCallerSchema(schema);
const reply = (structured: unknown, citations: unknown) => JSON.stringify({ structured, citations });

describe("a sampled answer is checked before it is used", () => {
  it("accepted: values as written or normalised in their cited cells; nulls are no claim; an array may be cited whole", () => {
    const out = checkReply(
      prepared(),
      reply(
        { requestsPerMinute: 1200, releaseDate: "2025-03-12", owner: "Dana Reyes", jsonLines: true, rollback: "PT10M", tags: ["payments", "JSON"] },
        { "/requestsPerMinute": ["c1"], "/releaseDate": ["c2"], "/owner": ["c3"], "/jsonLines": ["c4"], "/rollback": ["c5"], "/tags": ["c3", "c4"] },
      ),
      rows,
    );
    expect(out.answer?.structured).toEqual({ requestsPerMinute: 1200, releaseDate: "2025-03-12", owner: "Dana Reyes", jsonLines: true, rollback: "PT10M", tags: ["payments", "JSON"] });
    expect(out.answer?.citations["/tags"]).toEqual(["c3", "c4"]);
    const withNull = checkReply(prepared(), `Here it is:\n\`\`\`json\n${reply({ owner: "Dana Reyes", releaseDate: null }, { "/owner": ["c3"] })}\n\`\`\``, rows);
    expect(withNull.answer?.structured).toEqual({ owner: "Dana Reyes" });
  });

  it("refused, each with its reason", () => {
    const cases: Array<[string, string, RegExp]> = [
      ["not JSON", "The owner is Dana Reyes.", /not JSON/],
      ["citations not lists", reply({ owner: "Dana Reyes" }, { "/owner": "c3" }), /citations is not/],
      ["schema miss", reply({ owner: 7 }, { "/owner": ["c3"] }), /does not conform/],
      ["bad date", reply({ releaseDate: "2025-02-30" }, { "/releaseDate": ["c2"] }), /does not conform/],
      ["uncited", reply({ owner: "Dana Reyes" }, {}), /\/owner is not cited/],
      ["foreign cell", reply({ owner: "Dana Reyes" }, { "/owner": ["c9"] }), /"c9", which is not a returned row/],
      ["unsupported string", reply({ owner: "Sam Lee" }, { "/owner": ["c3"] }), /do not hold its value/],
      ["punctuation only", reply({ owner: "." }, { "/owner": ["c3"] }), /do not hold its value/],
      ["unsupported number", reply({ requestsPerMinute: 1300 }, { "/requestsPerMinute": ["c1"] }), /do not hold its value/],
      ["wrong cell for a date", reply({ releaseDate: "2025-03-12" }, { "/releaseDate": ["c1"] }), /do not hold its value/],
      ["boolean from a cell not about it", reply({ jsonLines: false }, { "/jsonLines": ["c3"] }), /do not hold its value/],
    ];
    for (const [why, text, reason] of cases) {
      const out = checkReply(prepared(), text, rows);
      expect(out.answer, why).toBeUndefined();
      expect("refused" in out ? out.refused : "", why).toMatch(reason);
    }
  });

  it("the model sees the question, the schema and each row with its cellId; a failure or a timeout falls back to the extractive answer", async () => {
    const seen: string[] = [];
    const good: Sampler = {
      async complete(request) {
        seen.push(request.prompt);
        expect(request.timeoutMs).toBe(SAMPLING_LIMITS.timeoutMs);
        return reply({ owner: "Dana" }, { "/owner": ["c3"] });
      },
    };
    const sampled = await answerStructured(schema, "Who owns payments?", rows, good);
    expect(sampled).toMatchObject({ source: "sampling", structured: { owner: "Dana" }, citations: { "/owner": ["c3"] } });
    expect(seen[0]).toContain("Question: Who owns payments?");
    for (const r of rows) expect(seen[0]).toContain(`[${r.cellId}] ${r.text}`);
    const extractive = await answerStructured(schema, "Who owns payments?", rows);
    expect(extractive.source).toBe("extractive");
    expect(extractive.structured).toMatchObject({ owner: "Dana Reyes" });
    const failing: Sampler = { complete: () => Promise.reject(new Error("Request timed out")) };
    const fellBack = await answerStructured(schema, "Who owns payments?", rows, failing);
    expect(fellBack).toMatchObject({ source: "extractive", structured: extractive.structured, refused: "the client's model did not answer: Request timed out" });
    expect(await fillBySampling(prepared(), "q", [], good)).toEqual({ refused: "no rows to fill from" });
  });

  it("a bad schema is 400 before the model is asked", async () => {
    let asked = 0;
    const sampler: Sampler = { complete: async () => (asked++, "{}") };
    await expect(answerStructured({ type: "nonsense" }, "q", rows, sampler)).rejects.toMatchObject({ status: 400 });
    expect(asked).toBe(0);
  });
});
