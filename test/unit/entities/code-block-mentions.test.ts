import { describe, expect, it } from "vitest";
import { codeBlockMentions } from "../../../src/entities/code-block-mentions.js";

function names(code: string): string[] {
  return [...new Set(codeBlockMentions(code).map((m) => `${m.name}:${m.kind}`))];
}

describe("codeBlockMentions", () => {
  it("takes imports, constructed classes and API-shaped names", () => {
    const code = ["import { Hono } from 'hono'", "const app = new Hono()", "", "app.get('/', (c) => c.text('Hono!'))", "export default app"].join("\n");
    expect(names(code)).toEqual(["hono:product", "Hono:symbol"]);
  });

  it("takes called functions, methods on a receiver, option keys and environment names", () => {
    const code = [
      'import { createClient } from "@libsql/client";',
      "export const turso = createClient({",
      '  url: "file:local.db",',
      "  syncUrl: process.env.TURSO_DATABASE_URL,",
      "  syncInterval: 60000,",
      "});",
      'await turso.batch(["CREATE TABLE users (id INTEGER PRIMARY KEY)"], "write");',
      "await turso.execute({ sql: 'SELECT 1', args: [] });",
    ].join("\n");
    expect(names(code)).toEqual([
      "@libsql/client:product",
      "createClient:symbol",
      "turso.batch:symbol",
      "turso.execute:symbol",
      "syncUrl:symbol",
      "TURSO_DATABASE_URL:symbol",
      "syncInterval:symbol",
    ]);
  });

  it("reads Python imports under their exported names", () => {
    expect(names("from pathlib import Path, PurePath as PP\nPP('x').read_text()")).toEqual(["Path:symbol", "PurePath:symbol"]);
  });

  it("leaves out strings, comments and plain local names", () => {
    expect(names("// call parseConfig here\nconst value = 'someThing';\nlet total = count + 1;")).toEqual([]);
  });

  it("reads a shell block for the programs it runs and the packages it names", () => {
    expect(names("$ npm install @libsql/client\n$ sudo cargo build --release\ncd docs && ls")).toEqual([
      "npm:product",
      "@libsql/client:product",
      "cargo:product",
    ]);
  });
});
