import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeContextPack } from "../../src/retrieve/code/code-context-pack.js";
import { RANK_WEIGHTS, rankDeclarations } from "../../src/retrieve/code/rank-declarations.js";
import type { RankWeights } from "../../src/retrieve/code/rank-declarations.js";
import { declarationCutAt } from "../../src/retrieve/code/relevance-cut.js";
import { taskMatches } from "../../src/retrieve/code/task-matches.js";
import { taskTerms } from "../../src/retrieve/code/task-terms.js";
import { actions } from "../../tools/index.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

/** An extension whose option is named after the module reading it, beside the extension's main module. */
const EXT_MAIN = `"""The docs extension: documents members and registers its options."""


def setup(app):
    """Registers the docs options: docs_hints and docs_members."""
    app.add_config_value("docs_hints", "signature", True)
    app.add_config_value("docs_members", True, True)


def document_members(obj):
    """Documents each member of an object with its signature."""
    return [member_signature(m) for m in dir(obj)]


def member_signature(member):
    """The signature a member is documented with."""
    return str(member)
`;
const EXT_HINTS = `"""Type annotations merged into descriptions."""


def merge_annotations(app, fields):
    """Adds each field's annotation to its description."""
    return fields
`;

/** A book of entries: the class, how it is made, and methods that say its words. */
const LEDGER = `class Ledger:
    """A ledger of posted entries with a running balance."""

    def __init__(self, owner, currency):
        self.owner = owner
        self.currency = currency
        self.rows = []

    def post_entry(self, amount):
        """Posts a ledger entry and updates the ledger balance."""
        self.rows.append(amount)

    def ledger_balance(self):
        """The ledger balance: the sum of every posted ledger entry."""
        return sum(self.rows)

    def ledger_entries(self):
        """Every posted ledger entry, oldest first."""
        return list(self.rows)

    def close_ledger(self):
        """Closes the ledger: no entry is posted after the ledger balance is final."""
        self.rows = tuple(self.rows)

    def undo(self, amount):
        """Refund: undoes an amount."""
        self.rows.remove(amount)

    def cancel(self, amount):
        """Refund: cancels an amount."""
        self.rows.remove(amount)
`;
const REPORT = `from books.ledger import Ledger


def print_report(ledger):
    """Prints each ledger entry and the ledger balance of a report."""
    return [str(e) for e in ledger.ledger_entries()]


def report_totals(ledger):
    """Totals for a report: the ledger balance of posted entries."""
    return ledger.ledger_balance()
`;

/** Sequences, and a printer dispatching on the printed object's class name. */
const SEQS = `class SeqFormula:
    """A sequence given by a formula over a range."""

    def __init__(self, formula, limits):
        self.formula = formula
        self.limits = limits
`;
const PRINTER = `class TexPrinter:
    """Prints objects as TeX markup, one method per class printed."""

    def _print_SeqFormula(self, seq):
        return "\\left[" + ", ".join(map(str, seq)) + "\\right]"

    def _print_Tuple(self, t):
        return "(" + ", ".join(map(str, t)) + ")"

    def _print_seqformula(self, seq):
        return str(seq)
`;

/** A scale module whose common method names (`_setup`) are declared in many classes. */
const SCALES = `class Scale:
    """A mapping from data values to visual properties."""

    def _setup(self, data, prop):
        return self


class Nominal(Scale):
    def _setup(self, data, prop):
        return self


class Continuous(Scale):
    def _setup(self, data, prop):
        """Maps data onto the unit interval by its minimum and maximum."""
        vmin, vmax = data.min(), data.max()
        return (data - vmin) / (vmax - vmin)

    def _spacing(self, data):
        return data
`;
const PLOTTER = `class Plotter:
    """Draws a plot's layers: sets up the scales, then the marks."""

    def _setup_scales(self, plot, data):
        return [scale._setup(data, None) for scale in plot.scales]

    def _setup(self, data, prop):
        return self
`;

/** A whole issue (over sixteen words), as an agent is handed one. */
const ISSUE = (about: string) =>
  `${about} When the report is printed after two posts of the same amount, the balance shows only one of them and the ` +
  "entries list repeats the first row. I expected both rows posted and the balance to be their sum, as the docs say.";

async function world(): Promise<TestWorld> {
  const w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
  await ingest(w, [
    fileEntry("pkg/ext/docs/__init__.py", EXT_MAIN),
    fileEntry("pkg/ext/docs/hints.py", EXT_HINTS),
    fileEntry("books/ledger.py", LEDGER),
    fileEntry("books/report.py", REPORT),
    fileEntry("pkg/value.py", "def read(x):\n    return x\n"),
    fileEntry("calc/seqs.py", SEQS),
    fileEntry("calc/printing/tex.py", PRINTER),
    fileEntry("draw/scales.py", SCALES),
    fileEntry("draw/plot.py", PLOTTER),
  ]);
  await w.app.worker.whenIdle();
  return w;
}

describe("task rules: option names as paths, the first file's rows, dispatch methods, packages", () => {
  let w: TestWorld;
  const noSeeds = { declarations: [], files: [] };
  const pathsOf = async (files: ReadonlyMap<string, number>) =>
    (await w.app.db.all<{ path: string }>(`SELECT path FROM files WHERE file_id IN (${[...files.keys()].map(() => "?").join(", ") || "''"}) ORDER BY path`, [...files.keys()])).map((r) => r.path);

  beforeAll(async () => {
    w = await world();
  });
  afterAll(async () => {
    await w.close();
  });

  it("reads a snake_case option in a task as the module its words name, as a whole path tail only", async () => {
    const task = ISSUE("Setting `docs_hints = 'description'` changes nothing; get_value and `docs_members` work.");
    const files = await pathsOf((await taskMatches(w.app.db, [w.projectId], taskTerms(task))).files);
    expect(taskTerms(task).optionPaths).toEqual(["docs/hints", "get/value", "docs/members"]);
    // hints.py by its option; no file is named `members`, and `get_value` names no value.py by its last word.
    expect(files).toEqual(["pkg/ext/docs/hints.py"]);
    // A short question with the same option reads no path from it.
    expect(taskTerms("docs_hints option ignored").optionPaths).toEqual([]);
  });

  it("passes every ranked declaration of a task's first listed file, however far under the best it scores", async () => {
    const task = ISSUE("`ledger_balance()` is wrong after a ledger entry is posted twice.");
    const pack = await codeContextPack(w.app.db, { projectIds: [w.projectId] }, { task, budget: 8192 }, w.app.tools);
    expect(pack.files[0]?.filepath).toBe("books/ledger.py");
    const ranking = await rankDeclarations(w.app.db, [w.projectId], task, noSeeds);
    const top = Math.max(...ranking.declarations.map((d) => d.score));
    const ratio = declarationCutAt(8192).ratio;
    const lead = ranking.declarations.filter((d) => d.declaration.path === "books/ledger.py");
    const under = lead.filter((d) => d.score < ratio * top).map((d) => d.declaration.qualifiedName);
    // Rows of the first file the relevance cut alone would drop are packed; rows of other files under it are not.
    expect(under.length).toBeGreaterThan(0);
    const packed = new Set(pack.declarations.map((d) => d.symbol));
    for (const name of under) expect(packed).toContain(name);
    const elsewhere = ranking.declarations.filter((d) => d.declaration.path !== "books/ledger.py" && d.score < ratio * top);
    for (const d of elsewhere) expect(packed).not.toContain(d.declaration.qualifiedName);
    // A short question keeps the plain cut.
    const question = "ledger_balance wrong after posting";
    const plain = await rankDeclarations(w.app.db, [w.projectId], question, noSeeds);
    const plainTop = Math.max(...plain.declarations.map((d) => d.score));
    const shortPacked = new Set((await codeContextPack(w.app.db, { projectIds: [w.projectId] }, { task: question, budget: 8192 }, w.app.tools)).declarations.map((d) => d.symbol));
    for (const d of plain.declarations.filter((x) => x.score < ratio * plainTop)) expect(shortPacked).not.toContain(d.declaration.qualifiedName);
  });

  it("counts a method named for a class the task writes (`_print_SeqFormula` for `SeqFormula`) as named, in a task only", async () => {
    const task = ISSUE("Printing `SeqFormula(n**2, (n, 0, 10))` as TeX escapes its brackets, so the markup cannot be pasted.");
    const namedPaths = async (dispatch: number) => {
      const m = await taskMatches(w.app.db, [w.projectId], taskTerms(task), undefined, 0, dispatch);
      const ids = [...m.named.keys()];
      return ids.map((id) => m.declarations.get(id)!.qualifiedName).sort();
    };
    // The exact name finds the class; the dispatch method (exact case, after an underscore) joins it, `_print_seqformula` does not.
    expect(await namedPaths(0)).toEqual(["SeqFormula"]);
    expect(await namedPaths(1)).toEqual(["SeqFormula", "TexPrinter._print_SeqFormula"]);
    expect(taskTerms(task).suffixes).toContain("SeqFormula");
    // A short question names no dispatch method.
    expect(taskTerms("SeqFormula printed as TeX").suffixes).toEqual([]);
    const place = async (weights?: RankWeights) =>
      (await rankDeclarations(w.app.db, [w.projectId], task, noSeeds, weights)).declarations.findIndex((d) => d.declaration.qualifiedName === "TexPrinter._print_SeqFormula");
    // Its words are the class's, which ranks above it on them alone; as a named method it leads.
    expect(await place()).toBe(0);
    expect(await place({ ...RANK_WEIGHTS, dispatch: 0 })).toBeGreaterThan(2);
  });

  it("counts the constructor of a class a task writes as a call (`Ledger(…)`) as named, in a task only", async () => {
    const task = ISSUE("Opening `Ledger('ann', 'EUR')` with a currency code in lower case keeps it so.");
    const named = async (constructors: number) => {
      const m = await taskMatches(w.app.db, [w.projectId], taskTerms(task), undefined, 0, 0, constructors);
      return [...m.named.keys()].map((id) => m.declarations.get(id)!.qualifiedName).sort();
    };
    expect(await named(0)).toEqual(["Ledger"]);
    expect(await named(1)).toEqual(["Ledger", "Ledger.__init__"]);
    // Written without a call, the class brings no constructor.
    const plain = ISSUE("A `Ledger` opened with a currency code in lower case keeps it so, and the report prints it.");
    const m = await taskMatches(w.app.db, [w.projectId], taskTerms(plain), undefined, 0, 0, 1);
    expect([...m.named.keys()].map((id) => m.declarations.get(id)!.qualifiedName)).toEqual(["Ledger"]);
    // A short question reads no call.
    expect(taskTerms("Ledger('ann', 'EUR') keeps lower case").called).toEqual([]);
  });

  it("counts the function a traceback frame names, in the frame's file and class, as named: the innermost frame most, in a task only", async () => {
    const task = [
      "Colour mapping fails with boolean data: drawing a plot whose colour is True or False raises a TypeError.",
      "Traceback (most recent call last):",
      '  File "/home/u/venv/lib/site-packages/draw/plot.py", line 5, in _setup_scales',
      "File ~/code/draw/draw/scales.py:17, in Continuous._setup(self, data, prop)",
      '  File "/usr/lib/python3.9/numbers.py", line 12, in __sub__',
      "TypeError: numpy boolean subtract is not supported",
    ].join("\n");
    const named = async (frames: number) => {
      const m = await taskMatches(w.app.db, [w.projectId], taskTerms(task), undefined, 0, 0, 0, { weight: frames, decay: 0.5 });
      return Object.fromEntries([...m.named].map(([id, s]) => [m.declarations.get(id)!.qualifiedName, s]));
    };
    // By its bare name `_setup` (declared four times) is one of four, half as sure as the one `_setup_scales`.
    expect(await named(0)).toEqual({ Continuous: 1, "Scale._setup": 0.5, "Nominal._setup": 0.5, "Continuous._setup": 0.5, "Plotter._setup": 0.5, "Plotter._setup_scales": 1 });
    // The innermost project frame names Continuous._setup for sure; the frame outside it counts half (the numbers.py frame is not the project's).
    expect(await named(1)).toEqual({ Continuous: 1, "Scale._setup": 0.5, "Nominal._setup": 0.5, "Continuous._setup": 1, "Plotter._setup": 0.5, "Plotter._setup_scales": 1 });
    const place = async (frames: number) =>
      (await rankDeclarations(w.app.db, [w.projectId], task, noSeeds, { ...RANK_WEIGHTS, frames })).declarations.findIndex((d) => d.declaration.qualifiedName === "Continuous._setup");
    // It rises above its three namesakes' level (they tie at a half by name alone).
    expect(await place(1)).toBeLessThan(await place(0));
    expect(await place(1)).toBeLessThanOrEqual(1);
  });

  it("reads a module path that lands on a package's index as naming the package's modules too, in a task only", async () => {
    const task = ISSUE("With the extension `pkg.ext.docs` enabled, merged annotations lose their types in the output.");
    const named = async (packages: number) => pathsOf((await taskMatches(w.app.db, [w.projectId], taskTerms(task), undefined, 0, 0, 0, undefined, packages)).files);
    expect(await named(0)).toEqual(["pkg/ext/docs/__init__.py"]);
    expect(await named(1)).toEqual(["pkg/ext/docs/__init__.py", "pkg/ext/docs/hints.py"]);
    // A file name (`hints.py`) names that file, not the package around it.
    const byFile = ISSUE("Merging in `pkg/ext/docs/__init__.py` drops the annotations the extension reads.");
    expect(await pathsOf((await taskMatches(w.app.db, [w.projectId], taskTerms(byFile), undefined, 0, 0, 0, undefined, 1)).files)).toEqual(["pkg/ext/docs/__init__.py"]);
    // The module's standing among the pack's files rises with it.
    const standing = async (packages: number) =>
      (await rankDeclarations(w.app.db, [w.projectId], task, noSeeds, { ...RANK_WEIGHTS, packages })).files.find((f) => f.path === "pkg/ext/docs/hints.py")?.score ?? 0;
    expect(await standing(1)).toBeGreaterThan(await standing(0));
  });

  it("puts each file's rows of a task's pack in the order of their own scores, in the places the file's ranking gives it", async () => {
    const task = ISSUE("`ledger_balance()` is wrong after a ledger entry is posted twice, and `close_ledger` does not stop it.");
    const ranking = await rankDeclarations(w.app.db, [w.projectId], task, noSeeds);
    const scoreOf = new Map(ranking.declarations.map((d) => [d.declaration.symbolId, d.score]));
    const pack = async (fileRowsByScore: boolean) => (await codeContextPack(w.app.db, { projectIds: [w.projectId] }, { task, budget: 8192, tuning: { fileRowsByScore } }, w.app.tools)).declarations;
    const outOfOrder = (rows: Awaited<ReturnType<typeof pack>>) =>
      rows.filter((d, i) => rows.slice(0, i).some((e) => e.fileId === d.fileId && scoreOf.get(e.symbolId)! < scoreOf.get(d.symbolId)!)).length;
    const [byScore, byWorth] = [await pack(true), await pack(false)];
    // The diversified order puts a weaker row of a file before a stronger one; by score, no row of a file comes after a weaker one.
    expect(outOfOrder(byWorth)).toBeGreaterThan(0);
    expect(outOfOrder(byScore)).toBe(0);
    // The same rows, and each place holds a row of the same file as before.
    expect(byScore.map((d) => d.symbolId).sort()).toEqual(byWorth.map((d) => d.symbolId).sort());
    expect(byScore.map((d) => d.fileId)).toEqual(byWorth.map((d) => d.fileId));
  });
});
