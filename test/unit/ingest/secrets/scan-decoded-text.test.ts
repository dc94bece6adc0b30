import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { scanDecodedText, scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import { buildAdversarialInput, nearMissLines, randomString, seededRandom } from "../../../fixtures/secrets/adversarial-input.js";

const random = seededRandom(2024);
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Base62 of `value`, left-padded with zeros to `width`. */
function base62(value: number, width: number): string {
  let out = "";
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, "0");
}

/** The body of a GitHub token after its `ghp_`: 30 random base62 characters and their CRC32 in 6 base62 digits. */
function githubTokenBody(): string {
  const entropy = randomString(random, BASE62, 30);
  return entropy + base62(crc32(entropy), 6);
}

const ghp = ["gh", "p"].join("");

/** `line` with `_`, `/`, `-` and `:` spelled as references and escapes. */
const encode = (line: string): string =>
  line.replace(/_/g, "&#95;").replace(/\//g, "\\/").replace(/-/g, "\\x2d").replace(/:/g, "&colon;");

describe("scanDecodedText", () => {
  it("finds a token spelled with an HTML character reference, on its line", () => {
    const html = `<html>\n<body>\n<p>Deploy key: <code>${ghp}&#95;${githubTokenBody()}</code></p>\n</body>\n</html>\n`;
    expect(scanDecodedText(html)).toEqual({ rule: "github-token", line: 3 });
    expect(scanDecodedText(html.replace("&#95;", "&#x5F;"))).toEqual({ rule: "github-token", line: 3 });
    expect(scanDecodedText(html.replace("&#95;", "&lowbar;"))).toEqual({ rule: "github-token", line: 3 });
  });

  it("finds a token spelled with a JSON or JavaScript escape, on its line", () => {
    const json = `{\n  "name": "ci",\n  "token": "${ghp}\\u005f${githubTokenBody()}"\n}\n`;
    expect(scanDecodedText(json)).toEqual({ rule: "github-token", line: 3 });
    expect(scanDecodedText(json.replace("\\u005f", "\\x5f"))).toEqual({ rule: "github-token", line: 3 });
    expect(scanDecodedText(json.replace("\\u005f", "\\u{5f}"))).toEqual({ rule: "github-token", line: 3 });
  });

  it("reports the original line when decoding added line breaks above the match", () => {
    const text = `a&#10;b&#10;c\\u000ad\nsecond line\n${ghp}&#95;${githubTokenBody()}\n`;
    expect(scanDecodedText(text)).toEqual({ rule: "github-token", line: 3 });
  });

  it("reports the decoded match when it is on an earlier line than a plain one", () => {
    const plain = `${ghp}_${githubTokenBody()}`;
    const text = `x\n${ghp}&#95;${githubTokenBody()}\ny\n${plain}\n`;
    expect(scanDecodedText(text)).toEqual({ rule: "github-token", line: 2 });
    expect(scanDecodedText(`x\n${plain}\ny\n${ghp}&#95;${githubTokenBody()}\n`)).toEqual({ rule: "github-token", line: 2 });
  });

  it("still finds a plain match that decoding would break", () => {
    // The escape after the key id decodes to a letter, which the rule's lookahead refuses.
    const keyId = ["AK", "IA", randomString(random, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)].join("");
    expect(scanDecodedText(`aws_access_key_id = ${keyId}\\u0041\n`)).toEqual({ rule: "aws-access-key-id", line: 1 });
  });

  it("finds a URL password hidden behind escaped slashes", () => {
    const password = randomString(random, BASE62, 20);
    const json = `{"url": "postgres:\\/\\/app:${password}@db.internal:5432\\/main"}`;
    expect(scanDecodedText(json)).toEqual({ rule: "url-credentials", line: 1 });
  });

  it("lets encoded near misses through", () => {
    for (let seed = 1; seed <= 20; seed++) {
      for (const line of nearMissLines(seed)) {
        expect(scanDecodedText(encode(line)), encode(line)).toBeNull();
      }
    }
  });
});

describe("scanForSecrets decodes too", () => {
  it("refuses the bytes of an HTML page and a JSON file that spell a token with references", () => {
    const utf8 = new TextEncoder();
    expect(scanForSecrets("site/index.html", utf8.encode(`<p>${ghp}&#95;${githubTokenBody()}</p>`))).toEqual({ rule: "github-token", line: 1 });
    expect(scanForSecrets("ci/settings.json", utf8.encode(`{"t": "${ghp}\\u005f${githubTokenBody()}"}`))).toEqual({
      rule: "github-token",
      line: 1,
    });
  });

  it("a 24 MiB file of encoded near misses and reference floods scans to completion with no finding", () => {
    const size = 24 * 1024 * 1024;
    const fill = (unit: string, length: number): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    const lines = buildAdversarialInput(size / 2).split("\n");
    const encoded = lines.map((line, i) => (i % 2 === 0 ? line : encode(line))).join("\n");
    const floods = ["&#95;authToken=", "_authToken=&#95;authToken=", "&amp;", "&#10;", "\\u005f", "\\/", "\\\\", "&DiacriticalGrav"];
    const parts = [encoded, ...floods.map((unit) => fill(unit, size / 2 / floods.length)), `&#${"0".repeat(4096)}`, `\\u{${"0".repeat(4096)}`];
    const bytes = Buffer.from(parts.join("\n"));
    expect(bytes.length).toBeGreaterThan(size - 1024);
    expect(scanForSecrets("adversarial.html", bytes)).toBeNull();
  });
});
