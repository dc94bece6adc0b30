/**
 * MCP session ids at volume, soak run: ten thousand sessions over streamable
 * HTTP (`SOAK_SESSIONS` changes the count; CI opens fewer, see .ci/run). The
 * default run opens two hundred (test/integration/mcp-http.test.ts).
 */
import { describe, it } from "vitest";
import { expectDistinctSessionIds } from "../support/mcp-sessions.js";

const SESSIONS = Math.max(1, Number(process.env.SOAK_SESSIONS ?? 10_000));

describe("MCP over streamable HTTP at /mcp", () => {
  it(`${SESSIONS.toLocaleString("en")} session ids: unique, visible ASCII, at least 122 random bits (UUID v4)`, { timeout: 120_000 }, async () => {
    await expectDistinctSessionIds(SESSIONS);
  });
});
