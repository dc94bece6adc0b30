import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { findSecretInReading } from "../../../../src/ingest/secrets/find-secret-in-reading.js";
import { scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import {
  CredentialRefusal,
  credentialRefusal,
  secretVerdict,
  secretVerdictOnBytes,
  secretVerdictOnReading,
} from "../../../../src/ingest/secrets/secret-verdict.js";
import { defaultContentType } from "../../../../src/ingest/accept/media-types.js";
import { readerFor } from "../../../../src/readers/index.js";
import type { ReadOutput } from "../../../../src/readers/reader.js";
import { buildDocx } from "../../../support/docx-fixture.js";
import { compressedPdf } from "../../../support/pdf-fixture.js";
import { randomString, seededRandom } from "../../../fixtures/secrets/adversarial-input.js";

const random = seededRandom(4711);
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const negativeDir = join(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/secrets/negative");
const utf8 = new TextEncoder();

/** The body of a GitHub token after its `ghp_`: 30 random base62 characters and their CRC32 in 6 base62 digits. */
function githubTokenBody(): string {
  const entropy = randomString(random, BASE62, 30);
  let check = "";
  for (let v = crc32(entropy); v > 0; v = Math.floor(v / 62)) check = BASE62[v % 62] + check;
  return entropy + check.padStart(6, "0");
}
const ghp = ["gh", "p"].join("");
const githubToken = (): string => `${ghp}_${githubTokenBody()}`;

/** Reads `bytes` with the reader the pipeline would pick for `path` (none: an empty reading, as the worker does). */
async function read(path: string, bytes: Uint8Array): Promise<ReadOutput> {
  const contentType = defaultContentType(path);
  const reader = readerFor({ path, contentType });
  return reader ? reader.read({ path, contentType, bytes }) : { factions: [], cells: [] };
}


describe("findSecretInReading, on readings made by the real readers", () => {
  it("Markdown with a NUL byte: binary to the reader, which stores nothing, but its bytes are scanned as text and refused", async () => {
    const bytes = utf8.encode(`# Notes\n\nintro\u0000\n\nkey ${githubToken()}\n`);
    expect(scanForSecrets("notes.md", bytes)).toEqual({ rule: "github-token", line: 5 });
    const reading = await read("notes.md", bytes);
    expect(reading).toEqual({ factions: [], cells: [] });
    expect(findSecretInReading("notes.md", reading)).toBeUndefined();
  });

  it("a Word document: the bytes are a zip the bytes scan cannot read; its paragraphs are caught, with no line", async () => {
    const bytes = buildDocx([{ kind: "p", text: "Release notes", style: "Heading1" }, { kind: "p", text: `CI uses ${githubToken()} to push.` }]);
    expect(scanForSecrets("release.docx", bytes)).toBeNull();
    expect(findSecretInReading("release.docx", await read("release.docx", bytes))).toEqual({ rule: "github-token", line: 0 });
  });

  it("a compressed PDF: the token is not in the bytes; it is caught on its page", async () => {
    const token = githubToken();
    const bytes = compressedPdf([["Runbook"], ["Deploying", `export GITHUB_TOKEN=${token}`]]);
    expect(Buffer.from(bytes).includes(token)).toBe(false);
    expect(scanForSecrets("runbook.pdf", bytes)).toBeNull();
    expect(findSecretInReading("runbook.pdf", await read("runbook.pdf", bytes))).toEqual({ rule: "github-token", line: 0, page: 2 });
  });

  it("HTML spelling the token with &#95;: caught on the line it is on", async () => {
    const html = `<!doctype html>\n<html><body>\n<h1>Setup</h1>\n<p>Use this key:\n<code>${ghp}&#95;${githubTokenBody()}</code></p>\n</body></html>\n`;
    expect(findSecretInReading("setup.html", await read("setup.html", utf8.encode(html)))).toEqual({ rule: "github-token", line: 5 });
  });

  it("JSON spelling the token with \\u005f: caught on the line it is on", async () => {
    const json = `{\n  "name": "deploy",\n  "auth": {\n    "token": "${ghp}\\u005f${githubTokenBody()}"\n  }\n}\n`;
    expect(findSecretInReading("deploy.json", await read("deploy.json", utf8.encode(json)))).toEqual({ rule: "github-token", line: 4 });
  });

  it("Markdown: the line inside a multi-line faction is the file's line", async () => {
    const md = `# Title\n\nFirst line of a paragraph\nsecond line\nthird holds ${githubToken()} here\n`;
    expect(findSecretInReading("doc.md", await read("doc.md", utf8.encode(md)))).toEqual({ rule: "github-token", line: 5 });
  });
});

describe("findSecretInReading, on hand-built readings", () => {
  const faction = (text: string, location: ReadOutput["factions"][number]["location"]) => ({
    factionType: "text" as const,
    inferredType: "text/plain",
    location,
    text,
    headingPath: [],
  });

  it("finds a token only a cell holds, and places it at its faction's first line", () => {
    const reading: ReadOutput = {
      factions: [faction("intro", { lineStart: 1, lineEnd: 1 }), faction("key: (see cell)", { lineStart: 7, lineEnd: 9 })],
      cells: [{ faction: 0, text: "intro" }, { faction: 1, text: `key: ${githubToken()}` }],
    };
    expect(findSecretInReading("a.txt", reading)).toEqual({ rule: "github-token", line: 7 });
  });

  it("uses the faction's first line when its text is not its lines (a rendered block)", () => {
    const reading: ReadOutput = { factions: [faction(`one\ntwo\nthree ${githubToken()}`, { lineStart: 10, lineEnd: 10 })], cells: [] };
    expect(findSecretInReading("a.html", reading)).toEqual({ rule: "github-token", line: 10 });
  });

  it("applies the name rules to the path, and finds nothing in an empty reading", () => {
    expect(findSecretInReading("config/.env", { factions: [], cells: [] })).toEqual({ rule: "env-file", line: 0 });
    expect(findSecretInReading("a.txt", { factions: [], cells: [] })).toBeUndefined();
  });
});

describe("the negative corpus, scanned the new way", () => {
  it.each(readdirSync(negativeDir))("%s: no finding in its bytes nor in its reading", async (name) => {
    const bytes = new Uint8Array(readFileSync(join(negativeDir, name)));
    const path = `fixtures/${name}`;
    expect(scanForSecrets(path, bytes)).toBeNull();
    expect(findSecretInReading(path, await read(path, bytes))).toBeUndefined();
  });
});

describe("secret verdicts for the reading worker", () => {
  const file = { path: "docs/setup.html", includeSecret: false };
  const html = (): Uint8Array => utf8.encode(`<p>hello</p>\n<p>${ghp}&#95;${githubTokenBody()}</p>\n`);

  it("word the failure as accept time words a refusal", () => {
    expect(credentialRefusal({ rule: "github-token", line: 2 })).toBe(
      "looks like a credential (rule github-token, line 2); name this path with includeSecret to read it",
    );
    expect(credentialRefusal({ rule: "github-token", line: 0, page: 3 })).toBe(
      "looks like a credential (rule github-token, page 3); name this path with includeSecret to read it",
    );
    expect(credentialRefusal({ rule: "env-file", line: 0 })).toBe("looks like a credential (rule env-file); name this path with includeSecret to read it");
  });

  it("check the bytes, then the reading; nothing when the file was named with includeSecret", async () => {
    const bytes = html();
    const reading = await read(file.path, bytes);
    expect(secretVerdictOnBytes(file, bytes)).toMatch(/^looks like a credential \(rule github-token, line 2\);/);
    expect(secretVerdictOnReading(file, reading)).toMatch(/^looks like a credential \(rule github-token, line 2\);/);
    expect(secretVerdict(file, bytes, reading)).toMatch(/rule github-token, line 2/);
    const allowed = { ...file, includeSecret: true };
    expect(secretVerdictOnBytes(allowed, bytes)).toBeUndefined();
    expect(secretVerdictOnReading(allowed, reading)).toBeUndefined();
    expect(secretVerdict(allowed, bytes, reading)).toBeUndefined();
  });

  it("carry a refusal as its own error class, so a pool can tell it from a reader's error", () => {
    const refusal = new CredentialRefusal(credentialRefusal({ rule: "github-token", line: 4 }));
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal.name).toBe("CredentialRefusal");
    expect(refusal.message).toMatch(/^looks like a credential \(rule github-token, line 4\)/);
  });

  it("catch a Word document only through its reading", async () => {
    const docx = { path: "notes.docx", includeSecret: false };
    const bytes = buildDocx([{ kind: "p", text: `token ${githubToken()}` }]);
    expect(secretVerdict(docx, bytes)).toBeUndefined();
    expect(secretVerdict(docx, bytes, await read(docx.path, bytes))).toBe(
      "looks like a credential (rule github-token); name this path with includeSecret to read it",
    );
  });
});
