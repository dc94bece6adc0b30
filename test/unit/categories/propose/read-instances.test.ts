import { describe, expect, it } from "vitest";
import { keyValueOf, parseDataClaim, readInstances, splitHeading } from "../../../../src/categories/propose/read-instances.js";
import type { Instance } from "../../../../src/categories/instance.js";
import { storedFile, storedFiles } from "./stored-reading.js";

const pairs = (instance: Instance | undefined) => Object.fromEntries((instance?.values ?? []).map((v) => [v.key, v.value]));

const INCIDENT = `---
title: Payment outage
type: postmortem
owner: Alice
---
# Incident: Payment outage

- Severity: high
- **Owner**: Alice
- **Date:** 2026-03-02

Payments failed. Root cause: a bad deploy.

## Timeline
Things happened at 10:00. More happened later.

### Detail
- Note: not part of the timeline's value
`;

describe("readInstances: Markdown", () => {
  it("reads a section's Key: value claims and sub-headings, anchored on its heading", async () => {
    const { factions, cells } = await storedFile("f1", "docs/incident.md", INCIDENT);
    const sections = readInstances(factions, cells).filter((i) => i.source === "section");
    const [incident] = sections;
    expect(incident).toMatchObject({ typeHint: "Incident", title: "Payment outage", fileId: "f1" });
    expect(pairs(incident)).toEqual({
      Severity: "high",
      Owner: "Alice",
      Date: "2026-03-02",
      "Root cause": "a bad deploy",
      Timeline: "Things happened at 10:00.",
    });
    expect(incident?.factionIds).toEqual(["f1#f1", "f1#f2", "f1#f3", "f1#f4", "f1#f5", "f1#f6", "f1#f7"]);
    const timeline = incident?.values.find((v) => v.key === "Timeline");
    expect(timeline?.cellIds).toHaveLength(2);
    const severity = incident?.values.find((v) => v.key === "Severity");
    expect(cells.find((c) => c.cellId === severity?.cellIds[0])?.text).toBe("Severity: high");
    // "Timeline" holds one sentence pair only in its sub-section, so it is no instance of its own.
    expect(sections).toHaveLength(1);
  });

  it("reads front matter, its type key as the hint and its title", async () => {
    const { factions, cells } = await storedFile("f1", "docs/incident.md", INCIDENT);
    const [front] = readInstances(factions, cells);
    expect(front).toMatchObject({ source: "front-matter", typeHint: "Postmortem", title: "Payment outage", factionIds: ["f1#f0"] });
    expect(pairs(front)).toEqual({ title: "Payment outage", owner: "Alice" });
  });

  it("titles front matter without a title by its file name", async () => {
    const { factions, cells } = await storedFile("f1", "docs/notes/standup.md", "---\nowner: Bob\ndate: 2026-03-02\n---\nHello.\n");
    expect(readInstances(factions, cells)).toEqual([
      expect.objectContaining({ source: "front-matter", typeHint: undefined, title: "standup" }),
    ]);
  });

  it("leaves out sections with fewer than two values", async () => {
    const { factions, cells } = await storedFile("f1", "docs/a.md", "# Incident: A\n\n- Severity: high\n\nJust prose.\n");
    expect(readInstances(factions, cells)).toEqual([]);
  });

  it("reads a paragraph whose every line is a pair one pair a line, each citing its claim; any other paragraph as its claims", async () => {
    const source = "# Customer: Globex\n\nRegion: EMEA\n**Tier**: gold.\n\n# Customer: Acme\n\nRegion: NA and more\nsaid nobody.\n\n- Tier: silver\n";
    const { factions, cells } = await storedFile("f1", "accounts.md", source);
    const [globex, acme] = readInstances(factions, cells);
    expect(pairs(globex)).toEqual({ Region: "EMEA", Tier: "gold" });
    const textOf = (id: string) => cells.find((c) => c.cellId === id)!.text;
    expect(globex!.values.map((v) => v.cellIds.map(textOf))).toEqual([[expect.stringContaining("Region: EMEA")], [expect.stringContaining("gold")]]);
    expect(pairs(acme)).toEqual({ Region: "NA and more said nobody", Tier: "silver" });
  });

  it("sorts factions and cells of several files itself", async () => {
    const a = await storedFile("b", "docs/b.md", "# Incident: B\n\n- Severity: low\n- Owner: Bob\n");
    const b = await storedFile("a", "docs/a.md", "# Incident: A\n\n- Severity: high\n- Owner: Alice\n");
    const shuffled = [...a.factions, ...b.factions].reverse();
    const instances = readInstances(shuffled, [...b.cells, ...a.cells].reverse());
    expect(instances.map((i) => [i.fileId, i.title, Object.keys(pairs(i))])).toEqual([
      ["a", "A", ["Severity", "Owner"]],
      ["b", "B", ["Severity", "Owner"]],
    ]);
  });
});

describe("splitHeading", () => {
  it.each([
    ["Incident: Payment outage", "Incident", "Payment outage"],
    ["ADR 12: Use libSQL", "ADR", "Use libSQL"],
    ["ADR-0012: Use libSQL", "ADR", "Use libSQL"],
    ["Runbook — Restart DB", "Runbook", "Restart DB"],
    ["Postmortem - API down", "Postmortem", "API down"],
    ["Meeting notes 2026-03-02", "Meeting notes", "2026-03-02"],
    ["Standup 10:30", "Standup", "10:30"],
    ["Timeline", undefined, "Timeline"],
    ["12. Use libSQL", undefined, "12. Use libSQL"],
    ["Q3: Goals", undefined, "Q3: Goals"],
    ["Using Node.js: a guide", undefined, "Using Node.js: a guide"],
  ])("%s", (heading, typeHint, title) => {
    expect(splitHeading(heading)).toEqual({ typeHint, title });
  });
});

describe("keyValueOf", () => {
  it.each([
    ["Severity: high", { key: "Severity", value: "high" }],
    ["**Owner**: Alice", { key: "Owner", value: "Alice" }],
    ["**Owner:** Alice", { key: "Owner", value: "Alice" }],
    ["__Root cause__: config", { key: "Root cause", value: "config" }],
    ["See https://example.com", undefined],
    ["10:30 standup", undefined],
    ["Severity:high", undefined],
    ["A very long key that has far too many words: value", undefined],
  ])("%s", (text, pair) => {
    expect(keyValueOf(text)).toEqual(pair);
  });
});

describe("readInstances: tables", () => {
  it("reads one instance per CSV row, by header", async () => {
    const csv = 'name,email,joined\nAlice Smith,alice@example.com,2026-01-01\n"Bob, Jr.",bob@example.com,\n';
    const { factions, cells } = await storedFile("t1", "data/customers.csv", csv);
    const rows = readInstances(factions, cells);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ source: "table", typeHint: "Customer", title: "Alice Smith", factionIds: ["t1#f1"] });
    expect(pairs(rows[0])).toEqual({ name: "Alice Smith", email: "alice@example.com", joined: "2026-01-01" });
    expect(pairs(rows[1])).toEqual({ name: "Bob, Jr.", email: "bob@example.com" });
    expect(rows[1]?.values[0]?.cellIds).toEqual(["t1#c2"]);
  });

  it("reads TSV and JSON Lines rows", async () => {
    const tsv = await storedFile("t2", "data/order_items.tsv", "sku\tqty\nA-1\t2\nB-2\t5\n");
    expect(readInstances(tsv.factions, tsv.cells).map((i) => [i.typeHint, i.title, pairs(i)])).toEqual([
      ["Order item", "A-1", { sku: "A-1", qty: "2" }],
      ["Order item", "B-2", { sku: "B-2", qty: "5" }],
    ]);
    const jsonl = await storedFile("t3", "data/events.jsonl", '{"id": 1, "user": {"name": "Ada"}, "tags": ["a", "b"]}\n{"id": 2}\n');
    expect(readInstances(jsonl.factions, jsonl.cells).map((i) => [i.typeHint, i.title, pairs(i)])).toEqual([
      ["Event", "1", { id: "1", "user.name": "Ada", tags: "a, b" }],
      ["Event", "2", { id: "2" }],
    ]);
  });

  it("reads nothing from a table without a header row", async () => {
    const { factions, cells } = await storedFile("t1", "data/numbers.csv", "1,2\n3,4\n");
    expect(readInstances(factions, cells)).toEqual([]);
  });
});

describe("readInstances: config", () => {
  it("reads objects of an array or map that repeat keys", async () => {
    const yaml = "services:\n  - name: api\n    port: 8080\n  - name: web\n    port: 80\ndatabases:\n  primary: {host: a, port: 5432}\n  replica: {host: b, port: 5433}\nversion: 3\n";
    const { factions, cells } = await storedFile("c1", "deploy/app.yaml", yaml);
    const instances = readInstances(factions, cells);
    expect(instances.map((i) => [i.source, i.typeHint, i.title, pairs(i)])).toEqual([
      ["config", "Service", "api", { name: "api", port: "8080" }],
      ["config", "Service", "web", { name: "web", port: "80" }],
      ["config", "Database", "primary", { host: "a", port: "5432" }],
      ["config", "Database", "replica", { host: "b", port: "5433" }],
    ]);
    expect(instances[0]?.values[1]?.cellIds.map((id) => cells.find((c) => c.cellId === id)?.text)).toEqual(["services[0].port: 8080"]);
  });

  it("reads JSON and TOML, and a large file read per entry", async () => {
    const json = await storedFile("c2", "config/envs.json", '{"envs": {"dev": {"url": "http://dev", "n": 1}, "prod": {"url": "https://x.io", "n": 3}}, "name": "x"}');
    expect(readInstances(json.factions, json.cells).map((i) => [i.typeHint, i.title])).toEqual([["Env", "dev"], ["Env", "prod"]]);
    const toml = await storedFile("c3", "config/hosts.toml", '[[servers]]\nname = "a"\nip = "1.2.3.4"\n\n[[servers]]\nname = "b"\nip = "1.2.3.5"\n\n[owner]\nname = "Tom"\n');
    expect(readInstances(toml.factions, toml.cells).map((i) => [i.typeHint, i.title, pairs(i)])).toEqual([
      ["Server", "a", { name: "a", ip: "1.2.3.4" }],
      ["Server", "b", { name: "b", ip: "1.2.3.5" }],
    ]);
    const lines = ["jobs:", ...Array.from({ length: 12 }, (_, i) => [`  job${i}:`, `    image: img${i}`, `    replicas: ${i}`]).flat(), "other:", "  a: 1"];
    const large = await storedFile("c4", "ci/pipeline.yaml", `${lines.join("\n")}\n`);
    expect(large.factions.length).toBeGreaterThan(1);
    const jobs = readInstances(large.factions, large.cells);
    expect(jobs).toHaveLength(12);
    expect(jobs[11]).toMatchObject({ typeHint: "Job", title: "job11", factionIds: ["c4#f0"] });
  });

  it("reads a file that is a list by its file name, and a multi-document stream apart", async () => {
    const list = await storedFile("c5", "data/users.json", '[{"id": "u1", "role": "admin"}, {"id": "u2", "role": "dev"}]');
    expect(readInstances(list.factions, list.cells).map((i) => [i.typeHint, i.title])).toEqual([["User", "u1"], ["User", "u2"]]);
    const stream = await storedFile("c6", "k8s/a.yaml", "items:\n  - {name: a, size: 1}\n---\nitems:\n  - {name: b, size: 2}\n");
    expect(readInstances(stream.factions, stream.cells)).toEqual([]);
  });

  it("parses config claims back into paths", () => {
    expect(parseDataClaim("services[0].port: 8080")).toEqual({ path: ["services", 0, "port"], value: "8080" });
    expect(parseDataClaim('a["x.y"].b: v: w')).toEqual({ path: ["a", "x.y", "b"], value: "v: w" });
    expect(parseDataClaim("a:b: c")).toEqual({ path: ["a:b"], value: "c" });
    expect(parseDataClaim("just a scalar")).toBeUndefined();
  });
});

describe("readInstances: mixed input", () => {
  it("reads every kind from one set of files", async () => {
    const { factions, cells } = await storedFiles([
      ["m", "docs/a.md", "# Incident: A\n\n- Severity: high\n- Owner: Alice\n"],
      ["t", "data/customers.csv", "name,plan\nAlice,pro\n"],
      ["c", "config/app.json", '{"services": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]}'],
    ]);
    expect(readInstances(factions, cells).map((i) => i.source)).toEqual(["config", "config", "section", "table"]);
  });
});
