import { describe, expect, it } from "vitest";
import { fieldNameOf, hintKey, keyOf, singularWord, slugOf, typeNameOf, uniqueFieldName } from "../../../../src/categories/propose/field-name.js";
import { FIELD_NAME_MAX } from "../../../../src/vocabulary.js";

describe("fieldNameOf", () => {
  it.each([
    ["Severity", "severity"],
    ["Root cause", "rootCause"],
    ["root_cause", "rootCause"],
    ["tls.cert_file", "tlsCertFile"],
    ["createdAt", "createdAt"],
    ["URL", "url"],
    ["ports[0].host", "ports0Host"],
    ["Begründung", "begründung"],
  ])("%s → %s", (key, name) => {
    expect(fieldNameOf(key)).toEqual({ name });
  });

  it("starts with a letter and stays within the length limit", () => {
    expect(fieldNameOf("2fa").name).toBe("field2fa");
    expect(fieldNameOf("--").name).toBe("field");
    expect(Array.from(fieldNameOf("word ".repeat(40)).name).length).toBe(FIELD_NAME_MAX);
  });

  it("renames a reserved name and says which", () => {
    expect(fieldNameOf("Text")).toEqual({ name: "textValue", reserved: "text" });
    expect(fieldNameOf("updated at")).toEqual({ name: "updatedAtValue", reserved: "updatedAt" });
  });

  it("makes names unique ignoring case", () => {
    const taken = new Set<string>();
    expect(uniqueFieldName("owner", taken)).toBe("owner");
    expect(uniqueFieldName("Owner", taken)).toBe("Owner2");
    expect(uniqueFieldName("owner", taken)).toBe("owner3");
  });
});

describe("type names", () => {
  it.each([
    ["services", "Service"],
    ["customers", "Customer"],
    ["order_items", "Order item"],
    ["incidentLog", "Incident log"],
    ["policies", "Policy"],
    ["boxes", "Box"],
    ["addresses", "Address"],
    ["people", "Person"],
    ["status", "Status"],
    ["statuses", "Status"],
    ["ADRs", "ADR"],
    ["2024", undefined],
  ])("%s → %s", (raw, name) => {
    expect(typeNameOf(raw)).toBe(name);
  });

  it("compares hints and keys in one normal form", () => {
    expect(hintKey("Incidents")).toBe(hintKey("incident"));
    expect(hintKey("Meeting notes")).toBe("meeting note");
    expect(keyOf("Root  cause")).toBe(keyOf("root_cause"));
    expect(slugOf("Decision record")).toBe("decision-record");
    expect(singularWord("CACHES")).toBe("CACHE");
  });
});
