import { describe, expect, it } from "vitest";
import { buildCli } from "../../../src/cli/build-cli.js";

const names = async (...args: string[]) => (await buildCli(["node", "pks", ...args])).commands.map((c) => c.name());

describe("buildCli: only the command that runs is loaded", () => {
  it("loads every command, in help order, when none is named", async () => {
    expect(await names()).toEqual(["serve", "mcp", "call", "ingest", "user", "project", "member", "key", "session"]);
    expect(await names("--help")).toHaveLength(9);
    expect(await names("help", "mcp")).toHaveLength(9);
    expect(await names("no-such-command")).toHaveLength(9);
  });

  it("loads only the named command (the admin commands come together)", async () => {
    expect(await names("mcp", "--root", "x")).toEqual(["mcp"]);
    expect(await names("serve", "--port", "0")).toEqual(["serve"]);
    expect(await names("key", "create")).toEqual(["user", "project", "member", "key", "session"]);
  });
});
