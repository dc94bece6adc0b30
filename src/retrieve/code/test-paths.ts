/** Folders and file names that hold tests in the common layouts of many languages. */
const TEST_FOLDER = /(^|\/)(tests?|__tests__|spec|specs|testing)\//i;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py)$/i;

/** True when a project path looks like a test file (`tests/x.py`, `a.test.ts`, `x_test.go`, `conftest.py`). */
export function isTestPath(path: string): boolean {
  return TEST_FOLDER.test(path) || TEST_FILE.test(path);
}
