import { describe, expect, it } from "vitest";
import { isDegenerate, isPlaceholder } from "../../../../src/ingest/secrets/placeholder.js";
import { randomString, seededRandom } from "../../../fixtures/secrets/adversarial-input.js";

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

describe("isPlaceholder", () => {
  it.each([
    "XXXXXXXXXXXXXXXX",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "IOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "your-api-key-here",
    "YOUR_TOKEN",
    "<token>",
    "sk-...",
    "****************",
    "0000000000000000",
    "1234567890abcdef",
    "abcdefghijklmnopqrstuvwxyz",
    "ZYXWVUTSRQPONMLK",
    "abababababababababab",
    "replace-me-before-deploy",
    "dummy-token-value-1",
    "REDACTED",
    "changeme12345678",
  ])("flags %s", (value) => {
    expect(isPlaceholder(value)).toBe(true);
  });

  it("lets random tokens through", () => {
    const random = seededRandom(5);
    let flagged = 0;
    for (let i = 0; i < 2000; i++) if (isPlaceholder(randomString(random, BASE62, 36))) flagged++;
    expect(flagged).toBeLessThanOrEqual(2);
  });
});

describe("isDegenerate", () => {
  it("ignores placeholder words but catches regular strings", () => {
    expect(isDegenerate("yourexampletokenvalue9")).toBe(false);
    expect(isDegenerate("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBe(true);
    expect(isDegenerate("abcabcabcabcabcabcabcabcabcabcabcabcabca")).toBe(true);
    expect(isDegenerate("0123456789012345678901234567890123456789")).toBe(true);
  });
});
