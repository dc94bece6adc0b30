import { describe, expect, it } from "vitest";
import {
  hasNameShape,
  isAcronym,
  isBrandCase,
  isCamelCase,
  isFileOrHost,
  isNumeric,
  isPascalCase,
  isSnakeCase,
} from "../../../src/entities/name-shape.js";

describe("name shapes", () => {
  it("tells camelCase code from brand spellings", () => {
    for (const w of ["parseConfig", "syncUrl", "parseHTTPHeader", "getX", "utf8Decode"]) expect(isCamelCase(w), w).toBe(true);
    for (const w of ["iPhone", "eBay", "libSQL", "macOS", "plain", "Plain"]) expect(isCamelCase(w), w).toBe(false);
    for (const w of ["iPhone", "eBay", "libSQL", "macOS", "jQuery"]) expect(isBrandCase(w), w).toBe(true);
  });

  it("knows PascalCase, snake_case and acronyms", () => {
    for (const w of ["RegExpRouter", "GitHub", "PThreads", "JavaScript"]) expect(isPascalCase(w), w).toBe(true);
    for (const w of ["Hono", "HTTP", "Http"]) expect(isPascalCase(w), w).toBe(false);
    for (const w of ["dh_testroot", "DEB_GAIN_ROOT_CMD", "_private_name"]) expect(isSnakeCase(w), w).toBe(true);
    for (const w of ["Snake_Case", "plain", "a_"]) expect(isSnakeCase(w), w).toBe(false);
    for (const w of ["JSR", "DHAT", "S3", "HTTP2"]) expect(isAcronym(w), w).toBe(true);
    for (const w of ["X", "Http", "ABCDEFGHIJ"]) expect(isAcronym(w), w).toBe(false);
  });

  it("knows numbers, files and hosts", () => {
    for (const w of ["42", "1.19.0", "v14", "12kB", "1-56592-115-1", "3.5%"]) expect(isNumeric(w), w).toBe(true);
    for (const w of ["x86", "S3", "v"]) expect(isNumeric(w), w).toBe(false);
    for (const w of ["README.md", "valgrind.h", "hono.dev", "docs.turso.tech"]) expect(isFileOrHost(w), w).toBe(true);
    for (const w of ["Node.js".replace(".js", ""), "app.request", "Foo.bar"]) expect(isFileOrHost(w), w).toBe(false);
  });

  it("sees name shapes that hold anywhere in a sentence", () => {
    for (const w of ["Node.js", "Lambda@Edge", "C++", "C#", "GPLv3", "Rules-Requires-Root", "JSR", "GitHub"]) expect(hasNameShape(w), w).toBe(true);
    for (const w of ["Hono", "The", "Usage", "plain"]) expect(hasNameShape(w), w).toBe(false);
  });
});
