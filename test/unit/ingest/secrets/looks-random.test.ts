import { describe, expect, it } from "vitest";
import { looksRandom } from "../../../../src/ingest/secrets/looks-random.js";
import { randomString, seededRandom } from "../../../fixtures/secrets/adversarial-input.js";

describe("looksRandom", () => {
  it.each([
    "q7m5zCKWaBFvWad6rqUWII4TLnUCq5hzo5Hgo37",
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "UgNTYRuFPMgjzCAGIW",
    "OjACXC8Ly0!DZE#59",
    "Zm9vOmJhcjpiYXo6cXV4OnF1dXg6Y29yZ2U=",
    "3f2b8c1e-9d4a-4f6b-8e2c-7a1d5b9c0e3f",
  ])("accepts %s", (value) => {
    expect(looksRandom(value)).toBe(true);
  });

  it.each([
    ["too short", "a1B2c3D4e5"],
    ["a word phrase", "correct-horse-battery-staple"],
    ["a constant name", "DATABASE_PASSWORD_FILE"],
    ["a camel-case identifier", "previousRefreshToken2"],
    ["a snake-case identifier", "refresh_token_v2"],
    ["a dotted path", "process.env.GITHUB_TOKEN"],
    ["a URL", "https://vault.example.com/v1/secret"],
    ["a file path", "/run/secrets/db_password"],
    ["a placeholder", "your-secret-key-goes-here-123"],
    ["a repeated pattern", "abcabcabcabcabcabc1"],
    ["a short lower-case hand-typed token", "ad180jjd733klru7"],
    ["letters only, one case", "qwertyuiopasdfghjklzxcv"],
  ])("rejects %s", (_label, value) => {
    expect(looksRandom(value)).toBe(false);
  });

  it("accepts nearly all random base62 and hex strings of secret length", () => {
    const random = seededRandom(11);
    let rejected = 0;
    for (let i = 0; i < 1000; i++) {
      if (!looksRandom(randomString(random, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 24))) rejected++;
      if (!looksRandom(randomString(random, "0123456789abcdef", 40))) rejected++;
    }
    expect(rejected).toBeLessThanOrEqual(10);
  });
});
