import { describe, expect, it } from "vitest";
import { isTestFixturePath } from "../../../../src/ingest/secrets/example-context.js";
import { scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import { findSecretInReading } from "../../../../src/ingest/secrets/find-secret-in-reading.js";
import { randomString, seededRandom } from "../../../fixtures/secrets/adversarial-input.js";
import { ADDRESS_PY, HIDDEN_TEXT_PY } from "../../../fixtures/secrets/docstring-examples.js";

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** Split literals: this file itself holds no credential-shaped line. */
const at = "@";
const scheme = (name: string) => `${name}:/` + "/";

describe("credential-shaped examples", () => {
  it("a docstring's example URL with a percent-encoded prose password is read", () => {
    expect(scanForSecrets("shop/_address.py", ADDRESS_PY)).toBeNull();
  });

  it("a docstring's example password made of words is read", () => {
    expect(scanForSecrets("shop/types.py", HIDDEN_TEXT_PY)).toBeNull();
    expect(findSecretInReading("shop/types.py", { factions: [{ factionType: "code_unit", inferredType: "text/x-python", location: {}, text: HIDDEN_TEXT_PY, headingPath: [] }], cells: [] })).toBeUndefined();
  });

  it("placeholders and example users stay examples anywhere", () => {
    expect(scanForSecrets("docs/setup.md", `Connect with ${scheme("postgres")}user:secret${at}example.com/db\n`)).toBeNull();
    expect(scanForSecrets("app/settings.py", "PASS" + "WORD = 'IAmSensitive'\n")).toBeNull();
  });

  it("a hand-typed URL password is an example in a comment, a docstring or a test fixture, and a credential in code", () => {
    const url = `${scheme("postgres")}billing:Winter2024Sun${at}db.internal:5432/billing`;
    expect(scanForSecrets("app/db.py", `DATABASE_URL = "${url}"\n`)?.rule).toBe("url-credentials");
    expect(scanForSecrets("app/db.py", `# e.g. DATABASE_URL = "${url}"\n`)).toBeNull();
    expect(scanForSecrets("app/db.py", `def connect():\n    """Connects, e.g. to ${url}."""\n`)).toBeNull();
    expect(scanForSecrets("tests/test_db.py", `DATABASE_URL = "${url}"\n`)).toBeNull();
  });

  it("a generated key stays a credential in a comment, a docstring and a test fixture (recall)", () => {
    const random = seededRandom(7);
    const password = randomString(random, BASE62, 24);
    const token = randomString(random, BASE62, 32);
    const url = `${scheme("postgres")}billing:${password}${at}db.internal:5432/billing`;
    expect(scanForSecrets("app/db.py", `# DATABASE_URL = "${url}"\n`)?.rule).toBe("url-credentials");
    expect(scanForSecrets("app/db.py", `def connect():\n    """Uses ${url}."""\n`)?.rule).toBe("url-credentials");
    expect(scanForSecrets("tests/fixtures/settings.py", `API_` + `KEY = "${token}"\n`)?.rule).toBe("generic-secret-assignment");
    expect(scanForSecrets("src/config.test.ts", `const api` + `Key = "${token}";\n`)?.rule).toBe("generic-secret-assignment");
  });

  it("a short made-up value is an example in a comment but a credential in code", () => {
    const value = "Qx7" + "mK2pL9vR4";
    expect(scanForSecrets("app/settings.py", `SECRET_` + `KEY = "${value}"\n`)?.rule).toBe("generic-secret-assignment");
    expect(scanForSecrets("app/settings.py", `# SECRET_` + `KEY = "${value}"\n`)).toBeNull();
  });

  it.each([
    ["tests/conftest.py", true],
    ["test/fixtures/secrets/x.json", true],
    ["pkg/__tests__/a.ts", true],
    ["src/api.spec.ts", true],
    ["internal/db/db_test.go", true],
    ["tests_helpers.py", false],
    ["src/testing.py", false],
    ["app/settings.py", false],
    ["latest/config.yaml", false],
  ])("%s is a test fixture: %s", (path, expected) => {
    expect(isTestFixturePath(path)).toBe(expected);
  });
});


describe("credential-shaped examples in bulk", () => {
  it.each([`x://app:` + `Winter2024Sun${at}h `, "api_" + "key=Qx7mK2pL9vR4 "])(
    "a 1 MiB docstring of %j, every candidate an example, scans to completion with no finding",
    (unit) => {
      const text = `"""\n${unit.repeat(Math.ceil((1024 * 1024) / unit.length))}`;
      expect(scanForSecrets("lib/flood.py", text)).toBeNull();
    },
  );
});
