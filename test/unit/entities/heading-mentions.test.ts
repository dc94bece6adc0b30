import { describe, expect, it } from "vitest";
import { headingMentions } from "../../../src/entities/heading-mentions.js";

describe("headingMentions", () => {
  it.each([
    ["Installing Hono", "Hono", "product"],
    ["1.1. An Overview of Valgrind", "Valgrind", "product"],
    ["What is rustdoc?", "rustdoc", "concept"],
    ["Rate limits", "rate limit", "concept"],
    ["Rate Limits", "rate limit", "concept"],
    ["Supporting rootless builds", "rootless build", "concept"],
    ["Gain Root API", "Gain Root API", "concept"],
    ["Using and understanding the Valgrind core", "Valgrind core", "concept"],
    ["Using rustdoc with Cargo", "rustdoc", "concept"],
    ["Implementation provided keywords", "implementation provided keyword", "concept"],
  ])("%s → %s (%s)", (heading, name, kind) => {
    expect(headingMentions(heading)).toEqual([{ name, kind, source: "heading" }]);
  });

  it.each([
    "Usage",
    "1. Introduction",
    "Quick Start",
    "Features",
    "Authors",
    "How to navigate this manual",
    "Why it matters",
    "Common cases",
    "dpkg side",
    "Outer and inner documentation",
    "Prototyping/preparation",
    "Package declarations regarding triggers",
    "",
  ])("%j names nothing", (heading) => {
    expect(headingMentions(heading)).toEqual([]);
  });

  it("needs support from elsewhere for a lone capitalised word opening the heading", () => {
    expect(headingMentions("Middleware")).toEqual([{ name: "Middleware", kind: "product", source: "heading", hint: "sentence-start" }]);
  });

  it("reads a heading written in capitals as lower case", () => {
    expect(headingMentions("TRANSITION PLAN")).toEqual([{ name: "transition plan", kind: "concept", source: "heading" }]);
  });
});
