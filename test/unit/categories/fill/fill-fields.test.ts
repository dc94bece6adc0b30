import { describe, expect, it } from "vitest";
import type { Instance, InstanceValue } from "../../../../src/categories/instance.js";
import type { FieldType, SchemaField } from "../../../../src/vocabulary.js";
import { fillFields, keyWords } from "../../../../src/categories/fill/fill-fields.js";

function field(name: string, type: FieldType): SchemaField {
  return { name, type, description: "", required: false };
}

function instance(values: InstanceValue[]): Instance {
  return {
    source: "section",
    typeHint: "Incident",
    title: "Payment outage",
    fileId: "file-1",
    factionIds: ["fac-1", "fac-2"],
    values,
  };
}

const incident = instance([
  { key: "Severity", value: "high", cellIds: ["cell-sev"] },
  { key: "Owner", value: "Alice", cellIds: ["cell-owner"] },
  { key: "Service", value: "billing", cellIds: ["cell-svc"] },
  { key: "Date", value: "2026-03-02", cellIds: ["cell-date", "cell-date-2"] },
]);

describe("fillFields", () => {
  it("fills an incident's fields from its own values and cites their cells; impact is not stated, so left out", () => {
    const fields = [
      field("severity", "text"),
      field("owner", "entity"),
      field("service", "text"),
      field("date", "date"),
      field("impact", "text"),
    ];
    expect(fillFields(fields, incident)).toEqual({
      values: { severity: "high", owner: "Alice", service: "billing", date: "2026-03-02" },
      sources: {
        severity: ["cell-sev"],
        owner: ["cell-owner"],
        service: ["cell-svc"],
        date: ["cell-date", "cell-date-2"],
      },
    });
  });

  it("leaves out a field whose value holds nothing of its type", () => {
    const filled = fillFields([field("severity", "number"), field("date", "datetime"), field("owner", "email")], incident);
    expect(filled).toEqual({ values: {}, sources: {} });
  });

  it("matches keys across case, spaces, underscores, hyphens and camelCase", () => {
    const inst = instance([
      { key: "Root cause", value: "expired certificate", cellIds: ["c1"] },
      { key: "time-to-recover", value: "3.5 h", cellIds: ["c2"] },
      { key: "HTTPStatus", value: "503", cellIds: ["c3"] },
      { key: "on_call", value: "yes", cellIds: ["c4"] },
    ]);
    const filled = fillFields(
      [field("rootCause", "text"), field("Time to recover", "number"), field("http_status", "integer"), field("onCall", "boolean")],
      inst,
    );
    expect(filled.values).toEqual({ rootCause: "expired certificate", "Time to recover": 3.5, http_status: 503, onCall: true });
    expect(filled.sources).toEqual({ rootCause: ["c1"], "Time to recover": ["c2"], http_status: ["c3"], onCall: ["c4"] });
  });

  it("accepts a key that is the field's name singular or plural", () => {
    const inst = instance([
      { key: "Owners", value: "Alice and Bob", cellIds: ["c1"] },
      { key: "Tag", value: "payments", cellIds: ["c2"] },
      { key: "Affected services", value: "billing, auth", cellIds: ["c3"] },
      { key: "Policies", value: "retry; backoff", cellIds: ["c4"] },
      { key: "Statuses", value: "open", cellIds: ["c5"] },
    ]);
    const filled = fillFields(
      [field("owner", "text[]"), field("tags", "text[]"), field("affected_service", "text[]"), field("policy", "text[]"), field("status", "text")],
      inst,
    );
    expect(filled.values).toEqual({
      owner: ["Alice", "Bob"],
      tags: ["payments"],
      affected_service: ["billing", "auth"],
      policy: ["retry", "backoff"],
      status: "open",
    });
    expect(filled.sources.policy).toEqual(["c4"]);
  });

  it("does not match keys that only share words", () => {
    const inst = instance([
      { key: "Root cause analysis", value: "done", cellIds: ["c1"] },
      { key: "Cause", value: "dns", cellIds: ["c2"] },
      { key: "Owner team", value: "payments", cellIds: ["c3"] },
    ]);
    expect(fillFields([field("root cause", "text"), field("owner", "entity")], inst)).toEqual({ values: {}, sources: {} });
  });

  it("prefers an exact key to a plural one, then the instance's order, skipping values that hold nothing", () => {
    const inst = instance([
      { key: "Owners", value: "Team A", cellIds: ["plural"] },
      { key: "owner", value: "Alice", cellIds: ["exact-1"] },
      { key: "OWNER", value: "Bob", cellIds: ["exact-2"] },
      { key: "Date", value: "soon", cellIds: ["vague"] },
      { key: "date", value: "March 2, 2026", cellIds: ["stated"] },
    ]);
    const filled = fillFields([field("owner", "entity"), field("date", "date")], inst);
    expect(filled.values).toEqual({ owner: "Alice", date: "2026-03-02" });
    expect(filled.sources).toEqual({ owner: ["exact-1"], date: ["stated"] });
  });

  it("returns copies of the cell lists and is deterministic", () => {
    const fields = [field("severity", "text"), field("date", "date")];
    const a = fillFields(fields, incident);
    const b = fillFields(fields, incident);
    expect(a).toEqual(b);
    a.sources.date!.push("mutated");
    expect(incident.values[3]!.cellIds).toEqual(["cell-date", "cell-date-2"]);
  });

  it("fills nothing from an instance with no values or for no fields", () => {
    expect(fillFields([field("severity", "text")], instance([]))).toEqual({ values: {}, sources: {} });
    expect(fillFields([], incident)).toEqual({ values: {}, sources: {} });
  });
});

describe("keyWords", () => {
  it("splits on case changes and separators, lower-cased", () => {
    expect(keyWords("rootCause")).toEqual(["root", "cause"]);
    expect(keyWords("Root cause")).toEqual(["root", "cause"]);
    expect(keyWords("root_cause")).toEqual(["root", "cause"]);
    expect(keyWords("root-cause:")).toEqual(["root", "cause"]);
    expect(keyWords("HTTPStatusCode")).toEqual(["http", "status", "code"]);
    expect(keyWords("p95Latency")).toEqual(["p95", "latency"]);
    expect(keyWords("  ")).toEqual([]);
  });
});
