import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { credentialPathRule, scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import { textReader } from "../../../../src/readers/text/text-reader.js";
import { randomString, seededRandom } from "../../../fixtures/secrets/adversarial-input.js";

const random = seededRandom(99);
const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const githubToken = (): string => ["gh", "p_", randomString(random, BASE62, 36)].join("");
const awsKeyId = (): string => ["AK", "IA", randomString(random, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)].join("");

describe("scanForSecrets", () => {
  it("returns null for ordinary text", () => {
    expect(scanForSecrets("src/index.ts", "export const answer = 42;\n")).toBeNull();
    expect(scanForSecrets("README.md", "")).toBeNull();
  });

  it("reports the rule id and the 1-based line, never the secret", () => {
    const token = githubToken();
    const finding = scanForSecrets("scripts/ci.sh", `#!/bin/sh\n\nexport GH=${token}\n`);
    expect(finding).toEqual({ rule: "github-token", line: 3 });
    expect(JSON.stringify(finding)).not.toContain(token);
    expect(JSON.stringify(finding)).not.toContain(token.slice(4, 20));
  });

  it("accepts bytes as well as strings", () => {
    const text = `id = "${awsKeyId()}"\n`;
    expect(scanForSecrets("a.toml", new TextEncoder().encode(text))).toEqual({ rule: "aws-access-key-id", line: 1 });
    expect(scanForSecrets("a.toml", text)).toEqual({ rule: "aws-access-key-id", line: 1 });
  });

  it("checks name rules first and reports them on line 0", () => {
    expect(scanForSecrets("config/.env.production", "NODE_ENV=production\n")).toEqual({ rule: "env-file", line: 0 });
    expect(scanForSecrets("config/.env", `GH=${githubToken()}\n`)).toEqual({ rule: "env-file", line: 0 });
  });

  it("applies name rules to binary content but skips content rules for binary noise", () => {
    const noise = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
    const binary = new Uint8Array([...noise, ...new TextEncoder().encode(`gh ${githubToken()}`)]);
    expect(scanForSecrets("certs/client.p12", binary)).toEqual({ rule: "keystore-file", line: 0 });
    expect(scanForSecrets("assets/logo.png", binary)).toBeNull();
  });

  it("scans text that is binary only for its NUL bytes as text: no reader reads it, but its bytes are kept", async () => {
    expect(scanForSecrets("notes/leak.md", `\0# Notes\n\ntoken ${githubToken()}\n`)?.rule).toBe("github-token");
    const late = new Uint8Array(9000 + 80);
    late.fill(0x20);
    late[8500] = 0;
    late.set(new TextEncoder().encode(githubToken()), 9000);
    expect(await textReader.read({ path: "data/log.txt", contentType: "text/plain", bytes: late })).toEqual({ factions: [], cells: [] });
    expect(scanForSecrets("data/log.txt", late)?.rule).toBe("github-token");
    late[8500] = 0x20;
    expect(scanForSecrets("data/log.txt", late)?.rule).toBe("github-token");
  });

  it("decodes UTF-16 with a byte-order mark instead of treating it as binary", () => {
    const text = `\uFEFFkey: ${githubToken()}\r\n`;
    const le = Buffer.from(text, "utf16le");
    expect(le.includes(0)).toBe(true);
    expect(scanForSecrets("notes/keys.txt", le)).toEqual({ rule: "github-token", line: 1 });
    const be = Buffer.from(le).swap16();
    expect(scanForSecrets("notes/keys.txt", be)).toEqual({ rule: "github-token", line: 1 });
  });

  it("reports the earliest line, and on a shared line the more specific rule", () => {
    const token = githubToken();
    const key = awsKeyId();
    expect(scanForSecrets("a.txt", `one\nkey ${key}\ngh ${token}\n`)).toEqual({ rule: "aws-access-key-id", line: 2 });
    expect(scanForSecrets("a.txt", `one\ngh ${token}\nkey ${key}\n`)).toEqual({ rule: "github-token", line: 2 });
    expect(scanForSecrets("a.yml", `github_token: ${token}\n`)).toEqual({ rule: "github-token", line: 1 });
  });

  it("counts CRLF and lone CR lines like LF lines, as the readers do", () => {
    expect(scanForSecrets("a.ini", `[a]\r\nb = 1\r\nc = ${githubToken()}\r\n`)).toEqual({ rule: "github-token", line: 3 });
    expect(scanForSecrets("a.ini", `[a]\rb = 1\rc = ${githubToken()}\r`)).toEqual({ rule: "github-token", line: 3 });
  });

  it("re-exports the name-only check", () => {
    expect(credentialPathRule("home/.netrc")).toBe("netrc-file");
  });

  it("never throws and only ever returns a rule id and a line within the file", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        const finding = scanForSecrets("fuzz.txt", text);
        if (finding === null) return;
        expect(Object.keys(finding).sort()).toEqual(["line", "rule"]);
        expect(finding.line).toBeGreaterThanOrEqual(1);
        expect(finding.line).toBeLessThanOrEqual(text.split("\n").length);
      }),
      { numRuns: 500 },
    );
  });

  it("finds a token wherever it is embedded between separators", () => {
    const separator = fc.constantFrom(" ", "\n", "\t", '"', "'", "=", ": ", ",", "(", "`", "<", ">");
    const filler = fc.string({ maxLength: 60 }).map((s) => s.replace(/[A-Za-z0-9_+/-]/g, " "));
    fc.assert(
      fc.property(filler, separator, separator, filler, (before, open, close, after) => {
        const token = githubToken();
        const finding = scanForSecrets("x.txt", `${before}${open}${token}${close}${after}`);
        expect(finding).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
