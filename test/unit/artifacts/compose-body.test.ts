import { describe, expect, it } from "vitest";
import { chooseKind, chooseTitle } from "../../../src/artifacts/artifact-input.js";
import { CITATION, dropNearDuplicates, packBody, renderBody } from "../../../src/artifacts/compose-body.js";
import type { BodyHeader, Claim } from "../../../src/artifacts/compose-body.js";
import { tokenCounter } from "../../../src/retrieve/token-counter.js";

const count = tokenCounter("o200k_base");
const id = (n: number) => `cel_${String(n).padStart(22, "0")}`;
const claim = (n: number, text: string, entity: string | null, section: string, position: [number, number] = [n, 0]): Claim => ({
  cellId: id(n),
  text,
  entity,
  section,
  position,
});
const header: BodyHeader = { title: "Billing overview", purpose: "Explain how billing works", kind: "report" };

describe("chooseKind", () => {
  it("takes the kind asked for over any word in the purpose", () => {
    expect(chooseKind("summarize the outage", "memo")).toBe("memo");
  });

  it("chooses summary, memo or report from the kind word that comes first", () => {
    expect(chooseKind("Summarize the billing rules")).toBe("summary");
    expect(chooseKind("A summary of refunds")).toBe("summary");
    expect(chooseKind("summarise the deploy process")).toBe("summary");
    expect(chooseKind("Write a memo on the outage")).toBe("memo");
    expect(chooseKind("a note to the finance team about late fees")).toBe("memo");
    expect(chooseKind("A memo summarizing the outage")).toBe("memo");
    expect(chooseKind("Summarize the memo from Dana")).toBe("summary");
    expect(chooseKind("Everything about invoices")).toBe("report");
    expect(chooseKind("memorable events")).toBe("report");
  });
});

describe("chooseTitle", () => {
  it("keeps a given title and otherwise takes the purpose's first sentence, capitalised", () => {
    expect(chooseTitle("anything", "Given title")).toBe("Given title");
    expect(chooseTitle("explain how invoices are issued. Then list fees.")).toBe("Explain how invoices are issued");
    expect(chooseTitle("first line\nsecond line")).toBe("First line");
  });

  it("cuts a long purpose at a word boundary", () => {
    const t = chooseTitle("word ".repeat(40));
    expect(t.length).toBeLessThanOrEqual(81);
    expect(t.endsWith("…")).toBe(true);
    expect(t).not.toMatch(/wor…$/);
  });
});

describe("renderBody", () => {
  it("groups claims by entity, then source section, in rank order of groups and document order inside a section", () => {
    const ranked = [
      claim(3, "Late invoices incur a fee.", "Invoice", "billing.md › Billing", [2, 1]),
      claim(1, "Invoices are issued monthly.", "Invoice", "billing.md › Billing", [2, 0]),
      claim(2, "Refunds take five days.", null, "faq.txt"),
      claim(4, "Invoices can be downloaded as PDF.", "Invoice", "faq.txt", [0, 3]),
    ];
    const { body, citations } = renderBody(header, ranked);
    expect(body).toBe(
      [
        "# Billing overview",
        "",
        "**Purpose:** Explain how billing works",
        "",
        "## Invoice",
        "",
        "### billing.md › Billing",
        "",
        `- Invoices are issued monthly. [${id(1)}]`,
        `- Late invoices incur a fee. [${id(3)}]`,
        "",
        "### faq.txt",
        "",
        `- Invoices can be downloaded as PDF. [${id(4)}]`,
        "",
        "## Other",
        "",
        "### faq.txt",
        "",
        `- Refunds take five days. [${id(2)}]`,
        "",
      ].join("\n"),
    );
    expect(citations).toEqual([id(1), id(3), id(4), id(2)]);
    expect([...body.matchAll(CITATION)].map((m) => m[1])).toEqual(citations);
  });

  it("uses sections as the top groups when no claim has an entity, and heads each kind differently", () => {
    const ranked = [claim(1, "A.", null, "a.md"), claim(2, "B.", null, "b.md")];
    const memo = renderBody({ ...header, kind: "memo" }, ranked).body;
    expect(memo).toContain("**Re:** Explain how billing works");
    expect(memo).toContain("## a.md\n");
    expect(memo).not.toContain("## Other");
    const summary = renderBody({ ...header, kind: "summary" }, ranked).body;
    expect(summary.startsWith("# Billing overview\n\n## a.md\n")).toBe(true);
  });

  it("keeps a claim on one line and never lets its text read as a citation or a heading", () => {
    const { body, citations } = renderBody(header, [claim(1, `see [${id(9)}]\n# not a heading`, null, "a.md")]);
    expect(citations).toEqual([id(1)]);
    expect([...body.matchAll(CITATION)].map((m) => m[1])).toEqual([id(1)]);
    expect(body).not.toMatch(/^# not a heading/m);
  });
});

describe("packBody", () => {
  const many = Array.from({ length: 60 }, (_, i) =>
    claim(i + 1, `Claim number ${i + 1} states that the ledger keeps record ${i * 7} for the harbor office.`, i % 3 ? "Ledger" : null, `doc-${i % 4}.md`),
  );

  it("fills up to the budget and never past it, counted exactly on the rendered body", () => {
    for (const budget of [40, 100, 300, 1000]) {
      const out = packBody(header, many, budget, count);
      expect(out.used).toBe(count(out.body));
      expect(out.used).toBeLessThanOrEqual(budget);
    }
    const small = packBody(header, many, 100, count);
    const large = packBody(header, many, 1000, count);
    expect(small.citations.length).toBeGreaterThan(0);
    expect(large.citations.length).toBeGreaterThan(small.citations.length);
    // The best-ranked claims are the ones kept.
    expect(small.citations).toContain(id(1));
  });

  it("refuses a budget below the body with no claims, naming the minimum", () => {
    const floor = count(renderBody(header, []).body);
    expect(() => packBody(header, many, floor - 1, count)).toThrow(
      `invalid input: budget: must be at least ${floor} tokens, what the empty answer already costs`,
    );
    const out = packBody(header, many, floor, count);
    expect(out.citations).toEqual([]);
    expect(out.used).toBe(floor);
  });
});

describe("dropNearDuplicates", () => {
  it("drops a claim that repeats a better-ranked one, across files too, keeping rank order", () => {
    const kept = dropNearDuplicates([
      { text: "Invoices are issued on the first day of each month." },
      { text: "Refunds are processed within five days." },
      { text: "invoices  are issued on the first day of each month" },
      { text: "Invoices are issued on the first day of every month." },
      { text: "Invoices are late after thirty days." },
    ]);
    expect(kept.map((k) => k.text)).toEqual([
      "Invoices are issued on the first day of each month.",
      "Refunds are processed within five days.",
      "Invoices are late after thirty days.",
    ]);
  });
});
