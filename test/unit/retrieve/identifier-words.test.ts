import { describe, expect, it } from "vitest";
import { identifierWords, searchableCode } from "../../../src/retrieve/identifier-words.js";

describe("identifier words", () => {
  it("an identifier is searched whole and by its parts", () => {
    expect(identifierWords("parseConfigFile")).toEqual(["parseconfigfile", "parse", "config", "file"]);
    expect(identifierWords("max_retry")).toEqual(["maxretry", "max", "retry"]);
    expect(identifierWords("HTTPServer")).toEqual(["httpserver", "http", "server"]);
    expect(identifierWords("send")).toEqual(["send"]);
  });

  it("rewrites every identifier of code text and leaves the rest", () => {
    expect(searchableCode("def get_user(self): return self.userName + 1")).toBe(
      "def getuser get user(self): return self.username user name + 1",
    );
  });
});
