import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import { SECRET_RULES } from "../../../../src/ingest/secrets/secret-rules.js";
import { nearMissLines } from "../../../fixtures/secrets/adversarial-input.js";
import { SYNTAXES, positiveCorpus } from "../../../fixtures/secrets/positive-corpus.js";

const here = dirname(fileURLToPath(import.meta.url));
const negativeDir = join(here, "../../../fixtures/secrets/negative");

describe("positive corpus", () => {
  const corpus = positiveCorpus();

  it("is large and covers every content rule in several syntaxes", () => {
    expect(corpus.length).toBeGreaterThan(500);
    for (const rule of SECRET_RULES) {
      const samples = corpus.filter((sample) => sample.rule === rule.id);
      expect(samples.length, rule.id).toBeGreaterThanOrEqual(2);
    }
    const syntaxNames = new Set(SYNTAXES.map((syntax) => syntax.name));
    for (const name of ["json", "yaml", "ini", "shell", "python", "typescript"]) expect(syntaxNames.has(name)).toBe(true);
  });

  it("has 100% recall, each sample reported under its own rule", () => {
    const misses = corpus
      .map((sample) => ({ sample, finding: scanForSecrets(sample.path, sample.content) }))
      .filter(({ sample, finding }) => finding?.rule !== sample.rule)
      .map(({ sample, finding }) => `${sample.name}: got ${finding ? finding.rule : "nothing"}`);
    expect(misses).toEqual([]);
  });

  it("never puts any of the secret into a finding", () => {
    for (const sample of corpus) {
      const finding = scanForSecrets(sample.path, sample.content);
      expect(Object.keys(finding ?? {}).sort()).toEqual(["line", "rule"]);
      expect(JSON.stringify(finding)).not.toContain(sample.secret.slice(0, 12));
    }
  });

  it("reports the line the secret starts on (or the header line just above a key body)", () => {
    let checked = 0;
    for (const sample of corpus) {
      if (sample.rule === "kubernetes-secret") continue; // reported on the `kind` line
      const at = sample.content.indexOf(sample.secret);
      if (at < 0) continue; // the secret was escaped or re-wrapped by the rendering
      const secretLine = sample.content.slice(0, at).split("\n").length;
      const finding = scanForSecrets(sample.path, sample.content);
      expect(finding?.line, sample.name).toBeLessThanOrEqual(secretLine);
      expect(finding?.line, sample.name).toBeGreaterThanOrEqual(secretLine - 1);
      checked++;
    }
    expect(checked).toBeGreaterThan(corpus.length / 2);
  });
});

describe("negative corpus", () => {
  const files = readdirSync(negativeDir);

  it("holds the placeholder, hash, lockfile, image and prose fixtures", () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
  });

  it.each(files)("%s has no finding", (name) => {
    const content = readFileSync(join(negativeDir, name));
    expect(scanForSecrets(`fixtures/${name}`, content)).toBeNull();
  });

  it("has no finding on any near-miss line", () => {
    for (let seed = 1; seed <= 50; seed++) {
      for (const line of nearMissLines(seed)) {
        expect(scanForSecrets("near-miss.txt", line), line).toBeNull();
      }
    }
  });

  it.each([
    ["the AWS documentation key id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"],
    ["an all-X key id", "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX"],
    ["a templated npm token", "//registry.npmjs.org/:_authToken=${NPM_TOKEN}"],
    ["an environment read", "const token = process.env.GITHUB_TOKEN;"],
    ["a UUID", "id: 3f2b8c1e-9d4a-4f6b-8e2c-7a1d5b9c0e3f"],
    ["a git SHA", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8"],
    ["a sha256", "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["an integrity string", '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="'],
    ["a GitHub Actions secret", "NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}"],
    ["a Helm value", "password: {{ .Values.password | b64enc }}"],
    ["a password prompt", 'password = getpass.getpass("Password: ")'],
    ["a function call", "secret = load_secret_from_vault(path)"],
    ["a word value", 'password: "correct-horse-battery-staple"'],
    ["an identifier value", "refreshToken: storedRefreshToken2,"],
    ["a masked value", 'password: "****************"'],
    ["a PEM header alone", 'if (pem.startsWith("-----BEGIN RSA PRIVATE KEY-----")) return parseRsa(pem);'],
    ["an example URL", "postgres://user:password@localhost:5432/app"],
    ["a templated URL", "mongodb://${MONGO_USER}:${MONGO_PASSWORD}@mongo:27017"],
    ["a curl with a variable", 'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com'],
    ["an unsigned JWT", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjMifQ."],
  ])("lets %s through", (_label, text) => {
    expect(scanForSecrets("snippet.txt", text)).toBeNull();
  });
});
