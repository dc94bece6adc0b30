import { describe, expect, it } from "vitest";
import { proposeShapes } from "../../../../src/categories/propose/propose-shapes.js";
import type { ShapeProposal } from "../../../../src/categories/propose/propose-shapes.js";
import { readInstances } from "../../../../src/categories/propose/read-instances.js";
import type { Instance } from "../../../../src/categories/instance.js";
import { storedFiles } from "./stored-reading.js";

type File = readonly [string, string, string];

async function propose(files: readonly File[]): Promise<ShapeProposal[]> {
  const { factions, cells } = await storedFiles(files);
  return proposeShapes(readInstances(factions, cells));
}

const incident = (title: string, severity: string, owner: string, service: string, date: string, extra = "") =>
  `# Incident: ${title}\n\n- Severity: ${severity}\n- Owner: ${owner}\n- Service: ${service}\n- Date: ${date}\n${extra}\nWhat happened is written here.\n`;

const INCIDENTS: File[] = [
  ["i1", "docs/incidents/payments.md", incident("Payment outage", "high", "Alice", "payments", "2026-03-02")],
  ["i2", "docs/incidents/search.md", incident("Search slow", "low", "Bob Smith", "search", "March 5, 2026")],
  ["i3", "docs/incidents/login.md", incident("Login down", "medium", "Billing Team", "auth", "2026-03-09")],
];

const adr = (n: number, title: string, status: string) =>
  `# ADR ${n}: ${title}\n\n## Status\n${status}\n\n## Context\nWe need ${title.toLowerCase()}. It must be small.\n\n## Decision\nWe do it.\n\n## Consequences\n- fewer servers\n- more files\n`;

describe("proposeShapes", () => {
  it("proposes Incident from three incident reports", async () => {
    const proposals = await propose(INCIDENTS);
    expect(proposals).toHaveLength(1);
    const [shape] = proposals;
    expect(shape?.name).toBe("Incident");
    expect(shape?.fingerprint).toBe("section:incident");
    expect(shape?.fields).toEqual([
      { name: "severity", type: "text", required: true, description: '"Severity" in 3 of 3 Incident sections' },
      { name: "owner", type: "entity", required: true, description: '"Owner" in 3 of 3 Incident sections' },
      { name: "service", type: "text", required: true, description: '"Service" in 3 of 3 Incident sections' },
      { name: "date", type: "date", required: true, description: '"Date" in 3 of 3 Incident sections' },
    ]);
    expect(shape?.evidence).toEqual(["i1#f0", "i2#f0", "i3#f0"]);
    expect(shape?.instances.map((i) => i.title)).toEqual(["Payment outage", "Search slow", "Login down"]);
    expect(shape?.description).toBe('3 sections headed "Incident: …" across 3 files with Severity, Owner, Service, Date');
  });

  it("keeps the fingerprint when a fourth instance adds a field", async () => {
    const before = await propose(INCIDENTS);
    const after = await propose([
      ...INCIDENTS,
      ["i4", "docs/incidents/dns.md", incident("DNS gone", "critical", "Carol", "dns", "2026-04-01", "- Duration: 40 minutes\n")],
    ]);
    expect(after).toHaveLength(1);
    expect(after[0]?.fingerprint).toBe(before[0]?.fingerprint);
    expect(after[0]?.evidence).toHaveLength(4);
    // One of four states a duration: below half, so not a field.
    expect(after[0]?.fields.map((f) => f.name)).toEqual(["severity", "owner", "service", "date"]);
    const twice = await propose([
      ...INCIDENTS.slice(0, 2),
      ["i4", "docs/incidents/dns.md", incident("DNS gone", "critical", "Carol", "dns", "2026-04-01", "- Duration: 40 minutes\n")],
      ["i5", "docs/incidents/mail.md", incident("Mail late", "low", "Dan", "mail", "2026-04-02", "- Duration: 2 minutes\n")],
    ]);
    expect(twice[0]?.fingerprint).toBe("section:incident");
    expect(twice[0]?.fields.at(-1)).toEqual({ name: "duration", type: "integer", required: false, description: '"Duration" in 2 of 4 Incident sections' });
  });

  it("groups type hints ignoring case and plural", async () => {
    const proposals = await propose([
      ["a", "a.md", "# Incident: A\n\n- Severity: high\n- Owner: Alice\n"],
      ["b", "b.md", "# incidents: B\n\n- severity: low\n- owner: Bob\n"],
    ]);
    expect(proposals.map((p) => [p.name, p.fingerprint, p.fields.map((f) => f.name)])).toEqual([
      ["Incident", "section:incident", ["severity", "owner"]],
    ]);
  });

  it("proposes ADR from decision records across three files", async () => {
    const proposals = await propose([
      ["a1", "docs/adr/0001.md", adr(1, "A database", "Accepted")],
      ["a2", "docs/adr/0002.md", adr(2, "A test runner", "Proposed")],
      ["a3", "docs/adr/0003.md", adr(3, "ES modules", "Superseded")],
    ]);
    expect(proposals).toHaveLength(1);
    expect(proposals[0]).toMatchObject({ name: "ADR", fingerprint: "section:adr", evidence: ["a1#f0", "a2#f0", "a3#f0"] });
    expect(proposals[0]?.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["status", "text", true],
      ["context", "text", true],
      ["decision", "text", true],
      ["consequences", "text", true],
    ]);
  });

  it("names decision records without a type word by their keys", async () => {
    const untitled = (title: string) => adr(1, title, "Accepted").replace(/^# ADR 1: /, "# ");
    const proposals = await propose([
      ["a1", "docs/adr/a.md", untitled("Use libSQL")],
      ["a2", "docs/adr/b.md", untitled("Adopt vitest")],
    ]);
    expect(proposals.map((p) => [p.name, p.fingerprint])).toEqual([["Decision record", "section:decision-record"]]);
  });

  it("proposes a document type from front matter across documents", async () => {
    const post = (title: string, author: string, tags: string, date: string) =>
      `---\ntitle: ${title}\nauthor: ${author}\ntags: [${tags}]\ndate: ${date}\n---\nSome words.\n`;
    const proposals = await propose([
      ["p1", "blog/one.md", post("Notes on logging", "Alice", "ops, db", "2026-01-01")],
      ["p2", "blog/two.md", post("How we deploy", "Bob Smith", "ops, api", "2026-02-01")],
      ["p3", "blog/three.md", post("Three small fixes", "Alice", "api", "2026-03-01")],
    ]);
    expect(proposals).toHaveLength(1);
    expect(proposals[0]).toMatchObject({ name: "Document", fingerprint: "front-matter:document", evidence: ["p1#f0", "p2#f0", "p3#f0"] });
    expect(proposals[0]?.fields.map((f) => [f.name, f.type])).toEqual([
      ["title", "text"],
      ["author", "entity"],
      ["tags", "text[]"],
      ["date", "date"],
    ]);
  });

  it("proposes a type from the rows of a CSV file", async () => {
    const csv = "name,email,joined,seats,active,text\nAlice Smith,alice@example.com,2026-01-01,5,yes,hi\nBob Jones,bob@example.com,2026-02-01,12,no,ho\nCarol,carol@example.com,2026-03-01,1,yes,\n";
    const [customer, ...rest] = await propose([["t", "data/customers.csv", csv]]);
    expect(rest).toEqual([]);
    expect(customer).toMatchObject({ name: "Customer", fingerprint: "table:customer", evidence: ["t#f1", "t#f2", "t#f3"] });
    expect(customer?.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["name", "entity", true],
      ["email", "email", true],
      ["joined", "date", true],
      ["seats", "integer", true],
      ["active", "boolean", true],
      ["textValue", "text", false],
    ]);
    expect(customer?.fields.at(-1)?.description).toBe('"text" in 2 of 3 Customer rows (named textValue: "text" is reserved)');
    expect(customer?.description).toContain('"text" is textValue, as "text" is reserved');
  });

  it("proposes types from repeated objects of YAML and JSON config", async () => {
    const proposals = await propose([
      ["y", "deploy/app.yaml", "services:\n  - name: api\n    port: 8080\n    public: true\n  - name: web\n    port: 80\n    public: false\n"],
      ["j", "deploy/more.json", '{"services": {"worker": {"name": "worker", "port": 9000, "public": false}}, "envs": {"dev": {"url": "http://dev.example.com", "replicas": 1}, "prod": {"url": "https://example.com", "replicas": 3}}}'],
    ]);
    expect(proposals.map((p) => [p.name, p.fingerprint, p.instances.length, p.fields.map((f) => `${f.name}:${f.type}`)])).toEqual([
      ["Env", "config:env", 2, ["url:url", "replicas:integer"]],
      ["Service", "config:service", 2, ["name:text", "port:integer", "public:boolean"]],
    ]);
  });

  it("proposes nothing from a single section, or from instances that share one key", async () => {
    expect(await propose([["a", "a.md", "# Incident: A\n\n- Severity: high\n- Owner: Alice\n"]])).toEqual([]);
    expect(
      await propose([
        ["a", "a.md", "# Incident: A\n\n- Severity: high\n- Owner: Alice\n"],
        ["b", "b.md", "# Incident: B\n\n- Severity: low\n- Cause: rain\n"],
      ]),
    ).toEqual([]);
  });

  it("groups 30,000 unlike table rows that all share one key without following each earlier row (a hostile CSV once held the thread 100 s)", () => {
    const row = (i: number, keys: readonly string[]): Instance => ({
      source: "table", typeHint: undefined, title: `r${i}`, fileId: `f${i % 50}`, factionIds: [`f${i % 50}#r${i}`],
      values: keys.map((key, k) => ({ key, value: `v${k}`, cellIds: [`c${i}-${k}`] })),
    });
    // Each row shares only "a" with the others (one key: never a group); two rows at the end share four keys.
    const unlike = Array.from({ length: 30_000 }, (_, i) => row(i, ["a", `b${i}`, `c${i}`]));
    const alike = [row(30_000, ["a", "Region", "Plan", "Seats"]), row(30_001, ["a", "Region", "Plan", "Seats"])];
    // Quadratic grouping ran past the test's time limit here (tens of seconds); bounded, it takes well under a second.
    const proposals = proposeShapes([...unlike, ...alike]);
    expect(proposals).toHaveLength(1);
    expect(proposals[0]?.instances.map((i) => i.title)).toEqual(["r30000", "r30001"]);
  });

  it("is deterministic: the same proposals whatever the order of instances", async () => {
    const files: File[] = [
      ...INCIDENTS,
      ["a1", "docs/adr/0001.md", adr(1, "A database", "Accepted")],
      ["a2", "docs/adr/0002.md", adr(2, "A test runner", "Proposed")],
    ];
    const { factions, cells } = await storedFiles(files);
    const instances = readInstances(factions, cells);
    const forward = proposeShapes(instances);
    const backward = proposeShapes([...instances].reverse());
    expect(forward.map((p) => p.name)).toEqual(["ADR", "Incident"]);
    expect(backward.map((p) => [p.name, p.fingerprint, p.fields, p.evidence])).toEqual(
      forward.map((p) => [p.name, p.fingerprint, p.fields, p.evidence]),
    );
  });

  it("tells apart two untyped shapes that would share a fingerprint", async () => {
    const a = (k: string) => `# One ${k}\n\n- Alpha: 1\n- Beta: 2\n- Gamma: 3\n`;
    const b = (k: string) => `# Two ${k}\n\n- Delta: x\n- Epsilon: y\n- Zeta: z\n`;
    const proposals = await propose([
      ["a", "a.md", `${a("x")}\n${b("x")}`.replace(/# One x/, "# Apple one").replace(/# Two x/, "# Pear two")],
      ["b", "b.md", `${a("y")}\n${b("y")}`.replace(/# One y/, "# Plum one").replace(/# Two y/, "# Fig two")],
    ]);
    expect(proposals.map((p) => [p.name, p.fingerprint])).toEqual([
      ["Record", "section:record+alpha+beta"],
      ["Record", "section:record+delta+epsilon"],
    ]);
  });
});
