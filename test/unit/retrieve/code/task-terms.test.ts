import { describe, expect, it } from "vitest";
import { splitPasted, taskTerms, withoutBanners } from "../../../../src/retrieve/code/task-terms.js";
import { FILE_RANK_WEIGHTS, TASK_RANK_WEIGHTS } from "../../../../src/retrieve/code/rank-files.js";

describe("taskTerms", () => {
  it("splits identifiers into their words and keeps them whole, before prose words", () => {
    const t = taskTerms("parseConfigFile breaks when max_retry is zero");
    expect(t.terms.slice(0, 7)).toEqual(expect.arrayContaining(["parseconfigfile", "parse", "config", "file", "maxretry", "max", "retry"]));
    expect(t.terms).toContain("breaks");
    expect(t.terms).toContain("zero");
    expect(t.terms).not.toContain("when");
    expect(t.identifiers).toEqual(["parseConfigFile", "max_retry"]);
  });

  it("takes names from code spans, calls and qualified names, not module paths", () => {
    const t = taskTerms("Calling `latex(expr)` or Session.send() on requests.sessions.Session, see print_tree(x)");
    expect(t.identifiers).toEqual(expect.arrayContaining(["latex", "Session", "send", "print_tree"]));
    expect(t.identifiers).not.toContain("requests");
    expect(t.identifiers).not.toContain("sessions");
  });

  it("finds paths, file names, dotted modules and traceback frames as lower-case path keys", () => {
    const t = taskTerms(
      'See src/App/server.ts and utils.py.\n  File "/usr/lib/python3/site-packages/sympy/solvers/polysys.py", line 42, in solve\nimport sympy.printing.latex',
    );
    expect(t.paths).toEqual(expect.arrayContaining(["src/app/server.ts", "utils.py", "usr/lib/python3/site-packages/sympy/solvers/polysys.py", "sympy/printing/latex"]));
  });

  it("reads a task's traceback frames (interpreter, IPython and older IPython shapes), innermost last, only in a task", () => {
    const task = [
      "Colour mapping fails with boolean data when the plot is drawn, as the traceback below shows in full:",
      "Traceback (most recent call last):",
      '  File "<stdin>", line 1, in <module>',
      '  File "/home/u/venv/lib/site-packages/pkg/core/plot.py", line 841, in draw',
      "File ~/code/pkg/pkg/_core/plot.py:1252, in Plotter._setup_scales(self, p, common)",
      "~/env/lib/python3.9/site-packages/pkg/_core/scales.py in _setup(self, data, prop)",
      "C:\\env\\pkg\\core\\expr.py, line 3",
    ].join("\n");
    expect(taskTerms(task).frames).toEqual([
      { path: "home/u/venv/lib/site-packages/pkg/core/plot.py", name: "draw" },
      { path: "code/pkg/pkg/_core/plot.py", name: "_setup_scales", owner: "Plotter" },
      { path: "env/lib/python3.9/site-packages/pkg/_core/scales.py", name: "_setup" },
    ]);
    expect(taskTerms('File "a/plot.py", line 841, in draw').frames).toEqual([]);
  });

  it("drops prose filler and numbers, and bounds the term list", () => {
    expect(taskTerms("It would be great if this worked, thanks! 42").terms).toEqual(["great"]);
    const long = Array.from({ length: 500 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");
    expect(taskTerms(long).terms.length).toBeLessThanOrEqual(64);
    expect(taskTerms("").terms).toEqual([]);
  });

  it("reads no name in a rule of underscores (a test report's separators)", () => {
    const t = taskTerms("____________ test_posting ____________\n_ _ _ `__init__` failed");
    expect(t.identifiers).toEqual(expect.arrayContaining(["test_posting", "__init__"]));
    expect(t.identifiers.filter((i) => !/\p{L}/u.test(i))).toEqual([]);
  });

  it("drops an interpreter's and a test runner's banner lines, and only those", () => {
    const task = [
      "Wrong result with apart",
      "Python 3.6.0 |Continuum Analytics, Inc.| (default, Dec 23 2016, 12:22:00)",
      'Type "copyright", "credits" or "license" for more information.',
      "IPython 5.1.0 -- An enhanced Interactive Python.",
      "%quickref -> Quick reference.",
      "`platform darwin -- Python 3.7.3, pytest-4.4.0, py-1.8.0, pluggy-0.9.0`",
      "rootdir: /tmp/project, inifile: setup.cfg",
      "plugins: cov-2.8.1",
      "collected 1 item",
      "In [1]: apart(bug, t)",
      "Python 3.11 introduced native TOML support",
    ].join("\n");
    const kept = withoutBanners(task).split("\n").filter(Boolean);
    expect(kept).toEqual(["Wrong result with apart", "In [1]: apart(bug, t)", "Python 3.11 introduced native TOML support"]);
    expect(taskTerms(withoutBanners(task)).terms).not.toEqual(expect.arrayContaining(["copyright", "quickref", "pluggy", "rootdir", "plugins"]));
  });

  it("counts a word the task's pasted blocks repeat below the words its prose writes, at a task's weight", () => {
    const task = [
      "Feature request: show units in dataset overview",
      "It would be nice if the units were shown in the `Dataset` repr:",
      "```",
      "<xarray.Dataset>",
      "Coordinates:",
      "  * time      (time) datetime64[ns] ...",
      "    rainfall  (time, y, x) float32 ...",
      "```",
      "    indented output: time time",
    ].join("\n");
    expect(splitPasted(task).pasted.split("\n")).toEqual([
      "<xarray.Dataset>",
      "Coordinates:",
      "  * time      (time) datetime64[ns] ...",
      "    rainfall  (time, y, x) float32 ...",
      "    indented output: time time",
    ]);
    const whole = taskTerms(task);
    expect(whole.terms.indexOf("time")).toBeLessThan(whole.terms.indexOf("units"));
    const read = taskTerms(task, TASK_RANK_WEIGHTS.pasted);
    expect(read.weights.get("time")).toBe(5 * TASK_RANK_WEIGHTS.pasted);
    expect(read.weights.get("units")).toBe(2);
    expect(read.terms.indexOf("units")).toBeLessThan(read.terms.indexOf("time"));
    // A code-shaped name's words count 3 wherever it is written; a question's weights read the blocks in full.
    expect(read.weights.get("dataset")).toBe(whole.weights.get("dataset")! - (1 - TASK_RANK_WEIGHTS.pasted));
    expect(FILE_RANK_WEIGHTS.pasted).toBe(1);
  });
});
