/**
 * Where a credential-shaped value is written as an example rather than as
 * configuration: on a comment line, inside a triple-quoted string (a Python
 * docstring, where `URL("https://jo:a%20secret@host")` shows how a class
 * is used), or anywhere in a test fixture. The generic rules (URL
 * userinfo, secret-named assignments) ask more of a value found there: it
 * must look machine-generated, as a real key pasted into a comment or a
 * test still does. Provider-specific tokens (`AKIA…`, `ghp_…`, private
 * keys) are credentials wherever they stand and never consult this.
 */
import { lowerBound } from "../../text/sorted-offsets.js";
import type { ScanText } from "./secret-rule.js";

/** Test folders and test file names across ecosystems (`tests/`, `__fixtures__/`, `test_x.py`, `x_test.go`, `x.spec.ts`, `conftest.py`). */
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?|fixtures?|__fixtures__|__mocks__|testdata|test-data)\/|(?:^|\/)(?:test_[^/]{1,200}|[^/]{1,200}_test\.[A-Za-z0-9]{1,8}|[^/]{1,200}\.(?:test|spec)\.[A-Za-z0-9]{1,8}|conftest\.py)$/i;
/** A line that starts as a comment (or a doctest prompt): `#`, `//`, `/*`, `*`, `-- `, `;`, `%`, `<!--`, `>>>`. */
const COMMENT_LINE = /^[ \t]{0,256}(?:#|\/\/|\/\*|\*|--(?:[ \t]|$)|;|%|<!--|>>>)/;
/** How far back on its line a match looks for a comment marker. */
const MAX_PREFIX = 256;

/** Whether `path` is a test or a test fixture by its folder or name. */
export function isTestFixturePath(path: string): boolean {
  return TEST_PATH.test(path);
}

interface TripleQuotes {
  double: number[];
  single: number[];
}

/** Offsets of every `"""` and `'''`, in order: one pass per scan. */
function tripleQuotes(text: string): TripleQuotes {
  const found: TripleQuotes = { double: [], single: [] };
  const pattern = /"""|'''/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    (match[0] === '"""' ? found.double : found.single).push(match.index);
  }
  return found;
}

/**
 * Start of the line holding `index`, or -1 when it lies more than
 * {@link MAX_PREFIX} characters back: the search is bounded so that many
 * candidates on one huge line cost linear time, not quadratic.
 */
function lineStartNear(text: string, index: number): number {
  const floor = Math.max(0, index - MAX_PREFIX);
  for (let i = index - 1; i >= floor; i--) if (text.charCodeAt(i) === 10) return i + 1;
  return floor === 0 ? 0 : -1;
}

/** Whether the value at `index` of the scanned text is written as an example (see the module comment). */
export function isExampleContext(scan: ScanText, index: number): boolean {
  if (scan.exampleFile) return true;
  const lineStart = lineStartNear(scan.text, index);
  if (lineStart >= 0 && COMMENT_LINE.test(scan.text.slice(lineStart, index))) return true;
  const quotes = scan.memo("triple-quotes", tripleQuotes);
  // lowerBound counts the quotes before the index: an odd count means inside a docstring.
  return lowerBound(quotes.double, index) % 2 === 1 || lowerBound(quotes.single, index) % 2 === 1;
}
