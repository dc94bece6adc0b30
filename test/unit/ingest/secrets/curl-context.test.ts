import { describe, expect, it } from "vitest";
import { isInCurlCommand } from "../../../../src/ingest/secrets/curl-context.js";
import { createScanText } from "../../../../src/ingest/secrets/secret-rule.js";

function check(text: string): boolean {
  return isInCurlCommand(createScanText(text), text.indexOf("-H"));
}

describe("isInCurlCommand", () => {
  it("follows the command line back to curl across continuations", () => {
    expect(check("curl -H 'A: b' url")).toBe(true);
    expect(check("curl url \\\n  -X POST \\\n  -H 'A: b'")).toBe(true);
    expect(check("curl url \\\r\n  -H 'A: b'")).toBe(true);
    expect(check("curl.exe url `\n  -H 'A: b'")).toBe(true);
  });

  it("stops at the end of the logical line", () => {
    expect(check("curl url\nhttp -H 'A: b'")).toBe(false);
    expect(check("wget -H 'A: b'")).toBe(false);
    expect(check("mycurl -H 'A: b'")).toBe(false);
  });
});
