/** Folders and file names that hold tests in the common layouts of many languages. */
const TEST_FOLDER = /(^|\/)(tests?|__tests__|spec|specs|testing)\//i;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py)$/i;

/** True when a project path looks like a test file (`tests/x.py`, `a.test.ts`, `x_test.go`, `conftest.py`). */
export function isTestPath(path: string): boolean {
  return TEST_FOLDER.test(path) || TEST_FILE.test(path);
}

/** Folders beside the main source: scripts, examples, docs, benchmarks, fixtures. */
const PERIPHERAL_FOLDER = /(^|\/)(scripts?|examples?|samples?|demos?|docs?|site|www|website|benchmarks?|bench|fixtures?|playground|e2e)\//i;

/** True when a project path sits in a folder beside the main source (`scripts/x.ts`, `examples/app/main.ts`). */
export function isPeripheralPath(path: string): boolean {
  return PERIPHERAL_FOLDER.test(path);
}
