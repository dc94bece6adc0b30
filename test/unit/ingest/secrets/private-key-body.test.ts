import { describe, expect, it } from "vitest";
import { hasPrivateKeyBody } from "../../../../src/ingest/secrets/private-key-body.js";

const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";

describe("hasPrivateKeyBody", () => {
  it("accepts a body after newlines, escapes, quotes and armour headers", () => {
    expect(hasPrivateKeyBody(`\n${body}\n`, 0)).toBe(true);
    expect(hasPrivateKeyBody(`\\n${body}\\n`, 0)).toBe(true);
    expect(hasPrivateKeyBody(`\\n" +\n  "${body}`, 0)).toBe(true);
    expect(hasPrivateKeyBody(`\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0F1E2D3C4B5A69788796A5B4C3D2E1F0\n\n${body}`, 0)).toBe(true);
  });

  it("rejects a missing, short, degenerate or far-away body", () => {
    expect(hasPrivateKeyBody("", 0)).toBe(false);
    expect(hasPrivateKeyBody('"; // header only', 0)).toBe(false);
    expect(hasPrivateKeyBody("\n-----END RSA PRIVATE KEY-----", 0)).toBe(false);
    expect(hasPrivateKeyBody("\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKc\n", 0)).toBe(false);
    expect(hasPrivateKeyBody(`\n${"A".repeat(64)}\n`, 0)).toBe(false);
    expect(hasPrivateKeyBody(`${" ".repeat(700)}${body}`, 0)).toBe(false);
  });
});
