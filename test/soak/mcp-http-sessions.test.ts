/**
 * MCP session ids at volume, soak run: ten thousand sessions over streamable
 * HTTP. The default run opens a thousand (test/integration/mcp-http.test.ts).
 */
import { describe, it } from "vitest";
import { expectDistinctSessionIds } from "../support/mcp-sessions.js";

describe("MCP over streamable HTTP at /mcp", () => {
  it("10,000 session ids: unique, visible ASCII, at least 122 random bits (UUID v4)", { timeout: 120_000 }, async () => {
    await expectDistinctSessionIds(10_000);
  });
});
