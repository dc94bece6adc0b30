/**
 * Typed knowledge end to end, over REST on a file database: types proposed
 * by reading, confirmed by a person signed in with a session, schemas edited
 * with optimistic concurrency, filled cells, and every error row the spec
 * names for these endpoints.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions as productActions } from "../../tools/index.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { readSchema, readSchemaProposal } from "../../src/store/categories/category-schemas.js";

const report = (title: string, extra = "") =>
  `# Incident: ${title}\n\n- Severity: high\n- Owner: Alice\n- Service: billing\n- Date: 2026-03-02\n${extra}\n${title} affected payments for a while.\n`;

interface Proposal {
  proposalId: string;
  name: string;
  fields: Array<{ name: string; type: string; required: boolean; description: string }>;
  evidence: string[];
  status: number;
}
type Json = Record<string, unknown>;

async function session(w: TestWorld, key: string): Promise<string> {
  const res = await send(w, "/v1/sessions", { method: "POST", key });
  expect(res.status).toBe(201);
  return ((await res.json()) as { sessionToken: string }).sessionToken;
}

async function settle(w: TestWorld): Promise<void> {
  await w.app.worker.whenIdle();
}

async function getJson(w: TestWorld, path: string, key: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await send(w, path, { key, project: w.projectId });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function post(w: TestWorld, path: string, key: string, json: unknown = {}, method = "POST"): Promise<{ status: number; body: Json }> {
  const res = await send(w, path, { method, key, project: w.projectId, json });
  return { status: res.status, body: (await res.json()) as Json };
}

const errorOf = (status: number, code: string, message: string) => ({ error: { status, code, message } });

describe("typed knowledge: the incident story", () => {
  let dir: string;
  let w: TestWorld;
  let editor: string;
  let viewer: string;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-types-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, actions: productActions, env: { PKS_RATE_LIMIT: "100000" } });
    editor = await session(w, w.keys.editor);
    viewer = await session(w, w.keys.viewer);
    base = `/v1/projects/${w.projectId}`;
  });
  afterAll(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let proposal: Proposal;
  let typeId: string;

  it("three incident reports are proposed as one Incident type, with the three sections as evidence", async () => {
    const { res } = await ingest(w, [
      fileEntry("incidents/payments.md", report("Payment outage")),
      fileEntry("incidents/login.md", report("Login failures")),
      fileEntry("incidents/search.md", report("Search latency")),
      fileEntry("README.md", "# Handbook\n\nHow we work.\n"),
    ]);
    expect(res.ok).toBe(true);
    await settle(w);
    const list = await getJson(w, `${base}/category-proposals`, editor);
    expect(list.status).toBe(200);
    const proposals = list.body as Proposal[];
    expect(proposals).toHaveLength(1);
    proposal = proposals[0]!;
    expect(proposal).toMatchObject({ name: "Incident", status: 0 });
    expect(proposal.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["severity", "text", true],
      ["owner", expect.stringMatching(/^(entity|text)$/), true],
      ["service", "text", true],
      ["date", "date", true],
    ]);
    const evidence = await getJson(w, `${base}/factions?factionIds=${proposal.evidence.join(",")}`, w.keys.viewer);
    const factions = evidence.body as Array<{ factionId: string; factionType: string; fileIds: string[] }>;
    expect(factions).toHaveLength(3);
    expect(new Set(factions.map((f) => f.factionType))).toEqual(new Set(["heading"]));
    expect(new Set(factions.flatMap((f) => f.fileIds)).size).toBe(3);
    // A viewer's session reads the list too.
    expect((await getJson(w, `${base}/category-proposals`, viewer)).status).toBe(200);
  });

  it("confirming makes the type: it lists its three members, each with a filled cell citing its own cells", async () => {
    const confirmed = await post(w, `${base}/category-proposals/${proposal.proposalId}/confirm`, editor);
    expect(confirmed.status).toBe(200);
    typeId = confirmed.body.entityId as string;
    expect(typeId).toMatch(/^ent_/);
    expect((await post(w, `${base}/category-proposals/${proposal.proposalId}/confirm`, editor)).body).toEqual({ entityId: typeId });

    const types = (await getJson(w, `${base}/entities?entityType=Category`, w.keys.viewer)).body as Json[];
    expect(types.map((t) => [t.entityId, t.name, t.kind])).toEqual([[typeId, "Incident", "category"]]);
    for (const type of [typeId, "Incident", "incident"]) {
      const members = (await getJson(w, `${base}/entities?entityType=${type}`, w.keys.viewer)).body as Json[];
      expect(members.map((m) => m.name).sort()).toEqual(["Login failures", "Payment outage", "Search latency"]);
      expect(new Set(members.map((m) => m.typeEntityId))).toEqual(new Set([typeId]));
    }

    const filled = await getJson(w, `${base}/cells?schemaId=${typeId}`, w.keys.viewer);
    expect(filled.status).toBe(200);
    expect(filled.headers.get("x-total-count")).toBe("3");
    const cells = filled.body as Json[];
    expect(cells).toHaveLength(3);
    for (const cell of cells) {
      expect(cell).toMatchObject({ severity: "high", owner: "Alice", service: "billing", date: "2026-03-02", schemaVersion: 1 });
      const fileIds = cell.fileIds as string[];
      expect(fileIds).toHaveLength(1);
      const own = (await getJson(w, `${base}/cells?fileId=${fileIds[0]}`, w.keys.viewer)).body as Array<{ cellId: string; text: string }>;
      const sources = cell._sources as Record<string, string[]>;
      expect(Object.keys(sources).sort()).toEqual(["date", "owner", "service", "severity"]);
      for (const [field, cited] of Object.entries(sources)) {
        expect(cited.length).toBeGreaterThan(0);
        for (const id of cited) {
          const source = own.find((c) => c.cellId === id);
          expect(source, `${field} cites a cell of its own file`).toBeDefined();
          expect(source!.text.toLowerCase()).toContain(field);
        }
      }
      const one = await getJson(w, `${base}/cells?schemaId=${typeId}&entityId=${(cell.entityIds as string[])[0]}`, w.keys.viewer);
      expect(one.body).toEqual([cell]);
    }

    const filed = await getJson(w, `${base}/factions?categoryEntityId=${typeId}`, w.keys.viewer);
    expect(filed.status).toBe(200);
    const filedIds = (filed.body as Array<{ factionId: string }>).map((f) => f.factionId);
    for (const id of proposal.evidence) expect(filedIds).toContain(id);
    expect(Number(filed.headers.get("x-total-count"))).toBe(filedIds.length);
  });

  it("a schema edit from version 1 makes version 2; the same edit again from version 1 is 409 with the version-2 schema", async () => {
    const fields = [...proposal.fields, { name: "impact", type: "text", description: "Who was affected", required: false }];
    const edited = await post(w, `${base}/entities/${typeId}/schema`, editor, { fields, version: 1 }, "PUT");
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ categorySchema: { fields, version: 2 } });
    const stale = await post(w, `${base}/entities/${typeId}/schema`, editor, { fields: proposal.fields, version: 1 }, "PUT");
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      ...errorOf(409, "schema_moved", "schema moved to version 2 since the edit began"),
      categorySchema: { fields, version: 2 },
    });
  });

  it("a fourth report is read against version 2; the others keep the version they were read against", async () => {
    await ingest(w, [fileEntry("incidents/queue.md", report("Queue backlog", "- Impact: 300 orders delayed\n"))]);
    await settle(w);
    const cells = (await getJson(w, `${base}/cells?schemaId=${typeId}`, w.keys.viewer)).body as Json[];
    expect(cells).toHaveLength(4);
    const fourth = cells.find((c) => String(c.text).includes("Queue backlog"))!;
    expect(fourth).toMatchObject({ schemaVersion: 2, severity: "high", impact: "300 orders delayed" });
    expect(cells.filter((c) => c !== fourth).map((c) => c.schemaVersion)).toEqual([1, 1, 1]);
    const members = (await getJson(w, `${base}/entities?entityType=${typeId}`, w.keys.viewer)).body as Json[];
    expect(members).toHaveLength(4);
  });

  it("rejecting the confirmed proposal is 409; the proposal stays confirmed", async () => {
    const rejected = await post(w, `${base}/category-proposals/${proposal.proposalId}/reject`, editor);
    expect(rejected).toEqual({ status: 409, body: errorOf(409, "category_proposal_settled", "category proposal already settled") });
    const list = (await getJson(w, `${base}/category-proposals`, editor)).body as Proposal[];
    expect(list.find((p) => p.proposalId === proposal.proposalId)?.status).toBe(1);
  });

  it("new material with a field the schema lacks proposes a schema change; approve makes it live one version up", async () => {
    await ingest(w, [fileEntry("incidents/cache.md", report("Cache stampede", "- Root cause: expired keys\n"))]);
    await ingest(w, [fileEntry("incidents/dns.md", report("DNS failure", "- Root cause: a typo\n"))]);
    await settle(w);
    const approved = await post(w, `${base}/entities/${typeId}/schema/approve`, editor);
    expect(approved.status).toBe(200);
    const schema = approved.body.categorySchema as { fields: Array<{ name: string }>; version: number };
    expect(schema.version).toBe(3);
    expect(schema.fields.map((f) => f.name)).toEqual(["severity", "owner", "service", "date", "impact", "rootCause"]);
    expect(await post(w, `${base}/entities/${typeId}/schema/approve`, editor)).toEqual({
      status: 404,
      body: errorOf(404, "no_pending_schema_proposal", "no pending schema proposal"),
    });
    expect(await post(w, `${base}/entities/${typeId}/schema/reject`, editor)).toEqual({
      status: 404,
      body: errorOf(404, "no_pending_schema_proposal", "no pending schema proposal"),
    });
  });

  it("answers every error row of these endpoints with the spec's message", async () => {
    const members = (await getJson(w, `${base}/entities?entityType=${typeId}`, w.keys.viewer)).body as Json[];
    const memberId = members[0]!.entityId as string;
    const put = (id: string, body: unknown, token = editor) => post(w, `${base}/entities/${id}/schema`, token, body, "PUT");
    const field = (name: unknown, type: unknown = "text") => ({ name, type, description: "", required: false });

    expect(await put("ent_missing", { fields: [], version: 0 })).toEqual({ status: 404, body: errorOf(404, "entity_not_found", "entity not found") });
    const notType = errorOf(400, "entity_not_category", "entity is not a category; its schema lives on its type entity");
    expect(await put(memberId, { fields: [], version: 0 })).toEqual({ status: 400, body: notType });
    expect(await post(w, `${base}/entities/${memberId}/schema/approve`, editor)).toEqual({ status: 400, body: notType });
    expect(await getJson(w, `${base}/factions?categoryEntityId=${memberId}`, w.keys.viewer)).toMatchObject({ status: 400, body: notType });
    expect(await getJson(w, `${base}/cells?schemaId=${memberId}`, w.keys.viewer)).toMatchObject({ status: 400, body: notType });

    const fieldError = (message: string, extra: Json = {}) => ({ status: 400, body: { ...errorOf(400, "invalid_schema_field", message), ...extra } });
    expect(await put(typeId, { fields: [field("")], version: 3 })).toEqual(fieldError('schema field "": a field needs a name'));
    expect(await put(typeId, { fields: [field("Owner"), field("owner")], version: 3 })).toEqual(
      fieldError('schema field "owner": duplicates "Owner" (names are unique ignoring case)'),
    );
    expect((await put(typeId, { fields: [field("schemaVersion")], version: 3 })).body.error).toMatchObject({
      message: expect.stringMatching(/^schema field "schemaVersion": the name is reserved/),
    });
    const long = "n".repeat(65);
    expect((await put(typeId, { fields: [field(long)], version: 3 })).body.error).toMatchObject({
      message: `schema field "${"n".repeat(64)}…": longer than 64 characters`,
    });
    // Capped like an artifact schema, and no name a JavaScript object keeps for itself.
    const many = Array.from({ length: 201 }, (_, i) => field(`f${i}`));
    expect(await put(typeId, { fields: many, version: 3 })).toEqual({
      status: 400,
      body: errorOf(400, "invalid_input", "invalid input: fields: at most 200 fields"),
    });
    for (const name of ["constructor", "Prototype"]) {
      expect(await put(typeId, { fields: [field(name)], version: 3 })).toEqual(
        fieldError(`schema field "${name}": the name is reserved (__proto__, constructor, prototype)`),
      );
    }
    expect(await put(typeId, { fields: [field("__proto__")], version: 3 })).toEqual(fieldError('schema field "__proto__": must start with a letter'));
    const vocabulary = ["text", "number", "integer", "boolean", "date", "datetime", "url", "email", "entity", "text[]"];
    expect(await put(typeId, { fields: [field("cost", "money")], version: 3 })).toEqual(
      fieldError(`schema field "cost": type "money" is not one of ${vocabulary.join(", ")}`, { vocabulary }),
    );

    const missing = errorOf(404, "category_proposal_not_found", "category proposal not found");
    expect(await post(w, `${base}/category-proposals/prp_missing/confirm`, editor)).toEqual({ status: 404, body: missing });
    expect(await post(w, `${base}/category-proposals/prp_missing/reject`, editor)).toEqual({ status: 404, body: missing });

    // Sessions: a key is not a session; a viewer's session may read but not change.
    const unauthorized = { status: 401, body: errorOf(401, "unauthorized", "unauthorized") };
    expect(await getJson(w, `${base}/category-proposals`, w.keys.editor)).toMatchObject(unauthorized);
    expect(await put(typeId, { fields: [], version: 3 }, w.keys.editor)).toEqual(unauthorized);
    expect(await put(typeId, { fields: [], version: 3 }, "pkss_notasession")).toEqual(unauthorized);
    const editorOnly = { status: 403, body: errorOf(403, "editor_access_required", "editor access required") };
    expect(await put(typeId, { fields: [], version: 3 }, viewer)).toEqual(editorOnly);
    expect(await post(w, `${base}/category-proposals/${proposal.proposalId}/confirm`, viewer)).toEqual(editorOnly);
    expect(await post(w, `${base}/entities/${typeId}/schema/approve`, viewer)).toEqual(editorOnly);
    // Nothing refused changed the schema.
    const schema = await post(w, "/v1/api/actions", w.keys.viewer, { action: "type_schema", input: { entityId: typeId } });
    expect(schema.body.result).toMatchObject({ categorySchema: { version: 3 } });
  });

  it("two schema edits from the same version race: exactly one wins, the other is 409", async () => {
    const fields = (extra: string) => [{ name: extra, type: "text", description: "", required: false }];
    const [a, b] = await Promise.all([
      post(w, `${base}/entities/${typeId}/schema`, editor, { fields: fields("alpha"), version: 3 }, "PUT"),
      post(w, `${base}/entities/${typeId}/schema`, editor, { fields: fields("beta"), version: 3 }, "PUT"),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect((winner.body.categorySchema as { version: number }).version).toBe(4);
    expect(loser.body.categorySchema).toEqual(winner.body.categorySchema);
  });
});

describe("typed knowledge: a rejected shape is never proposed again", () => {
  it("reject, then more reports of the shape: no new proposal; confirm after reject is 409", async () => {
    const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    try {
      const token = await session(w, w.keys.editor);
      const base = `/v1/projects/${w.projectId}`;
      await ingest(w, [fileEntry("a.md", report("One")), fileEntry("b.md", report("Two"))]);
      await settle(w);
      const [p] = (await getJson(w, `${base}/category-proposals`, token)).body as Proposal[];
      expect(p?.name).toBe("Incident");
      expect(await post(w, `${base}/category-proposals/${p!.proposalId}/reject`, token)).toEqual({ status: 200, body: {} });
      expect(await post(w, `${base}/category-proposals/${p!.proposalId}/reject`, token)).toEqual({ status: 200, body: {} });
      expect(await post(w, `${base}/category-proposals/${p!.proposalId}/confirm`, token)).toEqual({
        status: 409,
        body: errorOf(409, "category_proposal_settled", "category proposal already settled"),
      });
      await ingest(w, [fileEntry("c.md", report("Three", "- Region: eu\n")), fileEntry("d.md", report("Four", "- Region: us\n"))]);
      await settle(w);
      const after = (await getJson(w, `${base}/category-proposals`, token)).body as Proposal[];
      expect(after.map((x) => [x.proposalId, x.status])).toEqual([[p!.proposalId, 2]]);
      expect((await getJson(w, `${base}/entities?entityType=Category`, w.keys.viewer)).body).toEqual([]);
    } finally {
      await w.close();
    }
  });
});

describe("typed knowledge: a rejected schema change stays rejected; an empty change is neither proposed nor approved", () => {
  it("pager, rejected, is not proposed again after unrelated edits; a later field is proposed alone; approve of a change the schema caught up with is 409", async () => {
    const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    try {
      const token = await session(w, w.keys.editor);
      const base = `/v1/projects/${w.projectId}`;
      await ingest(w, [fileEntry("a.md", report("One")), fileEntry("b.md", report("Two")), fileEntry("c.md", report("Three"))]);
      await settle(w);
      const [p] = (await getJson(w, `${base}/category-proposals`, token)).body as Proposal[];
      const typeId = (await post(w, `${base}/category-proposals/${p!.proposalId}/confirm`, token)).body.entityId as string;
      const pendingNames = async () => (await readSchemaProposal(w.app.db, typeId))?.fields.map((f) => f.name);

      await ingest(w, [fileEntry("d.md", report("Four", "- Pager: ops-oncall\n")), fileEntry("e.md", report("Five", "- Pager: db-oncall\n"))]);
      await settle(w);
      expect(await pendingNames()).toEqual(["severity", "owner", "service", "date", "pager"]);
      expect(await post(w, `${base}/entities/${typeId}/schema/reject`, token)).toEqual({ status: 200, body: {} });

      for (const edit of ["How we work.", "How we work, again.", "How we work, a third time."]) {
        await ingest(w, [fileEntry("README.md", `# Handbook\n\n${edit}\n`), fileEntry("d.md", report("Four", `- Pager: ops-oncall\n${edit}\n`))]);
        await settle(w);
        expect(await pendingNames()).toBeUndefined();
      }

      await ingest(w, [fileEntry("f.md", report("Six", "- Pager: x\n- Region: eu\n")), fileEntry("g.md", report("Seven", "- Region: us\n"))]);
      await settle(w);
      expect(await pendingNames()).toEqual(["severity", "owner", "service", "date", "region"]);

      const v1 = await readSchema(w.app.db, typeId);
      expect(v1.version).toBe(1);
      const region = { name: "Region", type: "text", description: "where", required: false };
      const byHand = await post(w, `${base}/entities/${typeId}/schema`, token, { fields: [...v1.fields, region], version: 1 }, "PUT");
      expect(byHand.status).toBe(200);
      const empty = await post(w, `${base}/entities/${typeId}/schema/approve`, token);
      expect(empty).toEqual({
        status: 409,
        body: errorOf(409, "schema_change_empty", "the proposed schema change adds no field the schema lacks; reject it"),
      });
      expect((await readSchema(w.app.db, typeId)).version).toBe(2);

      await ingest(w, [fileEntry("README.md", "# Handbook\n\nHow we work, once more.\n")]);
      await settle(w);
      expect(await pendingNames()).toBeUndefined();
      expect(await post(w, `${base}/entities/${typeId}/schema/approve`, token)).toEqual({
        status: 404,
        body: errorOf(404, "no_pending_schema_proposal", "no pending schema proposal"),
      });
    } finally {
      await w.close();
    }
  });
});

describe("typed knowledge: a filled cell carries every field its member's own cells state", () => {
  it("Globex, a row of customers.csv and a section of accounts.md whose lines say Tier and Owner, is filled from both", async () => {
    const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    try {
      const token = await session(w, w.keys.editor);
      const base = `/v1/projects/${w.projectId}`;
      const accounts = [
        "# Accounts",
        "## Customer: Acme\n\nRegion: NA\nTier: silver\n\nAcme adopts Stripe as the payment provider.",
        "## Customer: Globex\n\nTier: gold\nOwner: Bob Smith\n\nBob Smith is the account executive for Globex.",
        "## Customer: Initech\n\n- Region: APAC\n- Tier: bronze",
      ].join("\n\n");
      const csv = "name,region,tier,owner\nUmbrella,NA,silver,Dana\nHooli,EMEA,gold,Erin\nGlobex,EMEA,,\n";
      await ingest(w, [fileEntry("accounts.md", `${accounts}\n`), fileEntry("customers.csv", csv)]);
      await settle(w);
      const proposals = (await getJson(w, `${base}/category-proposals`, token)).body as Proposal[];
      const rows = proposals.find((p) => p.name === "Customer" && p.fields.some((f) => f.name === "name"))!;
      expect(rows.fields.map((f) => f.name)).toEqual(["name", "region", "tier", "owner"]);
      const typeId = (await post(w, `${base}/category-proposals/${rows.proposalId}/confirm`, token)).body.entityId as string;
      await settle(w);
      const cells = (await getJson(w, `${base}/cells?schemaId=${typeId}`, w.keys.viewer)).body as Json[];
      const of = (name: string) => cells.find((c) => String(c.text).startsWith(`Customer "${name}"`));
      expect(of("Globex")).toMatchObject({ name: "Globex", region: "EMEA", tier: "gold", owner: "Bob Smith" });
      expect(new Set(of("Globex")!.fileIds as string[]).size).toBe(2);
      expect(of("Acme")).toMatchObject({ region: "NA", tier: "silver" });
      expect(of("Initech")).toMatchObject({ region: "APAC", tier: "bronze" });
      const sources = of("Globex")!._sources as Record<string, string[]>;
      const cited = async (cellId: string) => JSON.stringify((await getJson(w, `${base}/cells/${cellId}`, w.keys.viewer)).body);
      expect(await cited(sources.tier![0]!)).toContain("Tier: gold");
      expect(await cited(sources.region![0]!)).toContain("region: EMEA");
    } finally {
      await w.close();
    }
  });
});

describe("typed knowledge over MCP and dispatch", () => {
  it("an agent lists proposals, confirms one and edits the schema with the type actions", async () => {
    const w = await createTestWorld({ actions: productActions, env: { PKS_RATE_LIMIT: "100000" } });
    try {
      await ingest(w, [fileEntry("a.md", report("One")), fileEntry("b.md", report("Two"))]);
      await settle(w);
      const dispatch = async (action: string, input: unknown, key = w.keys.editor) => {
        const res = await send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action, input } });
        return { status: res.status, body: (await res.json()) as Json };
      };
      const listed = await dispatch("type_proposals", {}, w.keys.viewer);
      expect(listed.status).toBe(200);
      const proposals = (listed.body.result as { proposals: Proposal[] }).proposals;
      expect(proposals.map((p) => p.name)).toEqual(["Incident"]);
      expect((await dispatch("type_proposal_settle", { proposalId: proposals[0]!.proposalId, decision: "confirm" }, w.keys.viewer)).status).toBe(403);
      const confirmed = await dispatch("type_proposal_settle", { proposalId: proposals[0]!.proposalId, decision: "confirm" });
      const entityId = (confirmed.body.result as { entityId: string }).entityId;
      const read = await dispatch("type_schema", { entityId }, w.keys.viewer);
      expect((read.body.result as { categorySchema: { version: number } }).categorySchema.version).toBe(1);
      const edited = await dispatch("type_schema_edit", { entityId, version: 1, fields: [{ name: "severity", type: "text" }] });
      expect(edited.body.result).toEqual({ categorySchema: { fields: [{ name: "severity", type: "text", description: "", required: false }], version: 2 } });

      // Members keep the version they were read against until new material, or a re-read on demand.
      const filled = async () => (await (await send(w, `/v1/projects/${w.projectId}/cells?schemaId=${entityId}`, { key: w.keys.viewer })).json()) as Json[];
      expect((await filled()).map((c) => c.schemaVersion)).toEqual([1, 1]);
      expect((await dispatch("type_refill", { entityId }, w.keys.viewer)).status).toBe(403);
      const queued = await dispatch("type_refill", { entityId });
      expect(queued.body).toEqual({ action: "type_refill", result: { taskId: expect.stringMatching(/^tsk_/), status: "queued" } });
      await w.app.tasks.whenIdle();
      const task = (await (await send(w, `/v1/tasks/${(queued.body.result as { taskId: string }).taskId}`, { key: w.keys.editor })).json()) as Json;
      expect(task).toMatchObject({ status: "succeeded", result: { entityId, filled: 2 } });
      // The agent reads the same over MCP or dispatch with task_status.
      const status = await dispatch("task_status", { taskId: (queued.body.result as { taskId: string }).taskId }, w.keys.viewer);
      expect(status.body.result).toEqual(task);
      expect((await dispatch("task_status", { taskId: "tsk_missing" }, w.keys.viewer)).body).toEqual(errorOf(404, "task_not_found", "task not found"));
      const after = await filled();
      expect(after.map((c) => c.schemaVersion)).toEqual([2, 2]);
      for (const cell of after) expect(Object.keys(cell).filter((k) => !["cellId", "entityIds", "fileIds", "projectId", "text", "updatedAt", "schemaVersion", "_sources"].includes(k))).toEqual(["severity"]);
    } finally {
      await w.close();
    }
  });
});

describe("typed knowledge: the proposals list pages newest first", () => {
  it("three shapes proposed one batch after another page one at a time, newest first, with cursors only this read issued", async () => {
    const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    try {
      const token = await session(w, w.keys.editor);
      const base = `/v1/projects/${w.projectId}`;
      const runbook = (t: string) => `# Runbook: ${t}\n\n- Service: billing\n- Pager: ops\n- Duration: 10 minutes\n`;
      const meeting = (t: string) => `# Meeting: ${t}\n\n- Attendees: Ann, Bo\n- Decision: ship it\n- Owner: Ann\n`;
      for (const [i, make] of [report, runbook, meeting].entries()) {
        await ingest(w, [fileEntry(`batch${i}/a.md`, make("One")), fileEntry(`batch${i}/b.md`, make("Two"))]);
        await settle(w);
      }
      const names: string[] = [];
      let cursor = "";
      for (let page = 0; page < 5; page++) {
        const res = await send(w, `${base}/category-proposals?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: token });
        expect(res.status).toBe(200);
        names.push(...((await res.json()) as Proposal[]).map((p) => p.name));
        cursor = res.headers.get("x-next-cursor") ?? "";
        if (!cursor) break;
      }
      expect(names).toEqual(["Meeting", "Runbook", "Incident"]);
      // A cursor issued by another read is refused.
      const cells = await send(w, `${base}/cells?limit=1`, { key: w.keys.viewer });
      const foreign = await send(w, `${base}/category-proposals?limit=1&cursor=${encodeURIComponent(cells.headers.get("x-next-cursor")!)}`, { key: token });
      expect(await foreign.json()).toEqual(errorOf(400, "invalid_cursor", "invalid cursor"));
    } finally {
      await w.close();
    }
  });
});
