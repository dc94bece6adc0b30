import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/access/create-api-key.js";
import { ARTIFACT_FIELD_TYPES, RESERVED_RECORD_FIELD_NAMES } from "../../src/vocabulary.js";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const LEAD_FIELDS = [
  { name: "name", type: "string", required: true },
  { name: "score", type: "integer", required: true },
  { name: "budget", type: "number" },
  { name: "subscribed", type: "boolean" },
  { name: "tags", type: "string[]" },
];

interface ErrorBody {
  error: { status: number; code: string; message: string };
  [extra: string]: unknown;
}

describe("artifact schemas, records and object_submit (file database)", () => {
  let w: TestWorld;
  let dir: string;
  let leadId: string;
  let ticketId: string;
  const keys = {} as Record<"submit" | "editorBound" | "viewerBound" | "submitTicket", string>;

  const schemas = (key = w.keys.viewer) => send(w, "/v1/artifact-schemas", { key, project: w.projectId });
  const saveSchema = (json: unknown, key = w.keys.editor) =>
    send(w, "/v1/artifact-schemas", { method: "POST", key, project: w.projectId, json });
  const submit = (key: string, input: unknown) =>
    send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action: "object_submit", input } });
  const records = (query = "", key = w.keys.viewer) => send(w, `/v1/projects/${w.projectId}/records${query}`, { key });
  const recall = async (query: string) => {
    const res = await send(w, "/v1/api/actions", {
      method: "POST",
      key: w.keys.viewer,
      project: w.projectId,
      json: { action: "memory_query", input: { query } },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: MemoryQueryAnswer }).result;
  };
  /** Rows of every table a submission writes to. */
  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of ["records", "factions", "cells", "entities", "cell_entities", "artifact_schemas", "files"]) {
      out[table] = Number((await w.app.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n);
    }
    out.version = Number((await w.app.db.get<{ v: number }>("SELECT corpus_version AS v FROM projects WHERE project_id = ?", [w.projectId]))!.v);
    return out;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-records-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, actions, env: { PKS_RATE_LIMIT: "100000" } });
    const lead = await saveSchema({ name: "Lead", fields: LEAD_FIELDS });
    expect(lead.status).toBe(201);
    leadId = ((await lead.json()) as { schemaId: string }).schemaId;
    const ticket = await saveSchema({ name: "Ticket", fields: [{ name: "title", type: "string", required: true }] });
    ticketId = ((await ticket.json()) as { schemaId: string }).schemaId;
    const db = w.app.db;
    const { editor, viewer } = w.userIds;
    keys.submit = (await createApiKey(db, { userId: viewer, projectId: w.projectId, tier: "submit", boundTypeId: leadId })).plaintext;
    keys.editorBound = (await createApiKey(db, { userId: editor, boundTypeId: leadId })).plaintext;
    keys.viewerBound = (await createApiKey(db, { userId: viewer, boundTypeId: leadId })).plaintext;
    keys.submitTicket = (await createApiKey(db, { userId: editor, projectId: w.projectId, tier: "submit", boundTypeId: ticketId })).plaintext;
  });
  afterAll(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("schemas", () => {
    it("creates a schema (201 {name, schemaId}) and lists it as {schemaId, name, fields, updatedAt}", async () => {
      expect(leadId).toMatch(/^sch_[0-9A-Za-z]{22}$/);
      const res = await schemas();
      expect(res.status).toBe(200);
      const body = (await res.json()) as { schemas: unknown[] };
      expect(body.schemas).toEqual([
        {
          schemaId: leadId,
          name: "Lead",
          fields: LEAD_FIELDS.map((f) => ({ name: f.name, type: f.type, required: f.required ?? false })),
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        { schemaId: ticketId, name: "Ticket", fields: [{ name: "title", type: "string", required: true }], updatedAt: expect.any(String) },
      ]);
    });

    it("names the project by header, ?projectId= or the key's binding", async () => {
      const byQuery = await send(w, `/v1/artifact-schemas?projectId=${w.projectId}`, { key: w.keys.viewer });
      expect(((await byQuery.json()) as { schemas: unknown[] }).schemas).toHaveLength(2);
      const byBinding = await send(w, "/v1/artifact-schemas", { key: w.keys.bound });
      expect(((await byBinding.json()) as { schemas: unknown[] }).schemas).toHaveLength(2);
      const none = await send(w, "/v1/artifact-schemas", { key: w.keys.viewer });
      expect(none.status).toBe(400);
      expect(((await none.json()) as ErrorBody).error.code).toBe("project_required");
    });

    it("saving under an existing name (any case) replaces the fields and keeps schemaId and spelling", async () => {
      const res = await saveSchema({ name: " note ", fields: [{ name: "body", type: "string" }] });
      expect(res.status).toBe(201);
      const { schemaId } = (await res.json()) as { schemaId: string };
      const again = await saveSchema({ name: "NOTE", fields: [{ name: "body", type: "string", required: true }, { name: "stars", type: "number[]" }] });
      expect(again.status).toBe(201);
      expect(await again.json()).toEqual({ name: "note", schemaId });
      const listed = ((await (await schemas()).json()) as { schemas: Array<{ schemaId: string; name: string; fields: unknown }> }).schemas;
      expect(listed.filter((s) => s.schemaId === schemaId)).toEqual([
        {
          schemaId,
          name: "note",
          fields: [{ name: "body", type: "string", required: true }, { name: "stars", type: "number[]", required: false }],
          updatedAt: expect.any(String),
        },
      ]);
      expect(listed.map((s) => s.name)).toEqual(["Lead", "note", "Ticket"]);
    });

    it("refuses each bad field with the type-schema rules' messages, and stores nothing", async () => {
      const before = await counts();
      const reserved = `the name is reserved (${RESERVED_RECORD_FIELD_NAMES.join(", ")})`;
      const cases: Array<[unknown, string]> = [
        [[{ type: "string" }], 'schema field "": a field needs a name'],
        [[{ name: "c".repeat(65), type: "string" }], `schema field "${"c".repeat(64)}…": longer than 64 characters`],
        [[{ name: "_x", type: "string" }], 'schema field "_x": must start with a letter'],
        [[{ name: "recordId", type: "string" }], `schema field "recordId": ${reserved}`],
        [[{ name: "Honeypot", type: "string" }], `schema field "Honeypot": ${reserved}`],
        [[{ name: "text", type: "string" }], `schema field "text": ${reserved}`],
        [[{ name: "Email", type: "string" }, { name: "email", type: "string" }], 'schema field "email": duplicates "Email" (names are unique ignoring case)'],
        [[{ name: "due", type: "text" }], `schema field "due": type "text" is not one of ${ARTIFACT_FIELD_TYPES.join(", ")}`],
        [[{ name: "due", type: "string", required: "yes" }], 'schema field "due": required must be true or false'],
        [[{ name: "a", type: "string" }, "b"], 'schema field "#2": a field is an object with name and type'],
        [[{ name: "constructor", type: "string" }], 'schema field "constructor": the name is reserved (__proto__, constructor, prototype)'],
        [[{ name: "PROTOTYPE", type: "string" }], 'schema field "PROTOTYPE": the name is reserved (__proto__, constructor, prototype)'],
      ];
      for (const [fields, message] of cases) {
        const res = await saveSchema({ name: "Broken", fields });
        const body = (await res.json()) as ErrorBody;
        expect({ status: res.status, code: body.error.code, message: body.error.message }).toEqual({
          status: 400,
          code: "invalid_schema_field",
          message,
        });
      }
      const vocab = (await (await saveSchema({ name: "Broken", fields: [{ name: "due", type: "date" }] })).json()) as ErrorBody;
      expect(vocab.vocabulary).toEqual([...ARTIFACT_FIELD_TYPES]);
      const inputs: Array<[unknown, string]> = [
        [{ name: "Broken" }, "invalid input: fields: must be an array of {name, type} objects"],
        [{ name: "Broken", fields: [] }, "invalid input: fields: a schema needs at least one field"],
        [{ name: "Broken", fields: Array.from({ length: 201 }, (_, i) => ({ name: `f${i}`, type: "string" })) }, "invalid input: fields: at most 200 fields"],
        [{ fields: LEAD_FIELDS }, "invalid input: name: a schema needs a name"],
        [{ name: "  ", fields: LEAD_FIELDS }, "invalid input: name: a schema needs a name"],
        [{ name: "a/b", fields: LEAD_FIELDS }, "invalid input: name: must not hold control characters or slashes"],
        [{ name: "x".repeat(129), fields: LEAD_FIELDS }, "invalid input: name: longer than 128 characters"],
      ];
      for (const [json, message] of inputs) {
        const res = await saveSchema(json);
        expect(res.status).toBe(400);
        expect(((await res.json()) as ErrorBody).error).toEqual({ status: 400, code: "invalid_input", message });
      }
      expect(await counts()).toEqual(before);
    });

    it("a viewer may list but not save (403 editor access required); a submit key may do neither", async () => {
      const res = await saveSchema({ name: "Lead", fields: [{ name: "x", type: "string" }] }, w.keys.viewer);
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toEqual({ status: 403, code: "editor_access_required", message: "editor access required" });
      expect((await schemas(w.keys.viewer)).status).toBe(200);
      for (const r of [await schemas(keys.submit), await saveSchema({ name: "Lead", fields: LEAD_FIELDS }, keys.submit)]) {
        expect(r.status).toBe(403);
        expect(((await r.json()) as ErrorBody).error.message).toBe("action not available to an API key");
      }
      const fields = ((await (await schemas()).json()) as { schemas: Array<{ schemaId: string; fields: unknown[] }> }).schemas;
      expect(fields.find((s) => s.schemaId === leadId)!.fields).toHaveLength(LEAD_FIELDS.length);
    });
  });

  describe("object_submit", () => {
    let recordId: string;
    const data = { name: "Ada Quillfeather", score: 7, budget: 1250.5, subscribed: true, tags: ["analytics", "pilot"] };

    it("a submit key bound to the schema stores a conforming record: {recordId}", async () => {
      const before = await counts();
      const res = await submit(keys.submit, { data });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { action: string; result: { recordId: string } };
      expect(body.action).toBe("object_submit");
      recordId = body.result.recordId;
      expect(recordId).toMatch(/^rec_[0-9A-Za-z]{22}$/);
      const after = await counts();
      expect(after).toEqual({
        ...before,
        records: before.records! + 1,
        factions: before.factions! + 1,
        cells: before.cells! + 1,
        entities: before.entities! + 1,
        cell_entities: before.cell_entities! + 1,
        version: before.version! + 1,
      });
    });

    it("the record is listed by the records read, with the data as stored", async () => {
      const res = await records(`?schemaId=${leadId}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-next-cursor")).toBe("");
      expect(res.headers.get("x-total-count")).toBe("1");
      expect(await res.json()).toEqual([{ recordId, schemaId: leadId, data, createdAt: expect.stringMatching(/^\d{4}-/) }]);
    });

    it("the record is an entity of kind record backing one cell that reads well", async () => {
      const row = await w.app.db.get<{ cell_id: string; entity_id: string }>("SELECT cell_id, entity_id FROM records WHERE record_id = ?", [recordId]);
      const entity = await w.app.db.get<{ kind: string; name: string; source_key: string }>(
        "SELECT kind, name, source_key FROM entities WHERE entity_id = ?",
        [row!.entity_id],
      );
      expect(entity).toEqual({ kind: "record", name: "Ada Quillfeather", source_key: `record:${recordId}` });
      const listed = await send(w, `/v1/projects/${w.projectId}/entities?entityType=record`, { key: w.keys.viewer });
      expect(((await listed.json()) as Array<{ entityId: string; kind: string; cellCount: number }>).map((e) => [e.entityId, e.kind, e.cellCount])).toEqual([
        [row!.entity_id, "record", 1],
      ]);
      const cells = await send(w, `/v1/projects/${w.projectId}/cells?entityId=${row!.entity_id}`, { key: w.keys.viewer });
      const [cell] = (await cells.json()) as Array<{ cellId: string; text: string; fileIds: string[] }>;
      expect(cell!.cellId).toBe(row!.cell_id);
      expect(cell!.text).toBe("Lead record: name: Ada Quillfeather; score: 7; budget: 1250.5; subscribed: true; tags: analytics, pilot");
      const file = await send(w, `/v1/projects/${w.projectId}/files/${cell!.fileIds[0]}`, { key: w.keys.viewer });
      expect(((await file.json()) as { path: string; status: string })).toMatchObject({ path: ".pks/records/Lead.jsonl", status: "ready" });
    });

    it("memory_query finds the record's cell", async () => {
      const answer = await recall("Which lead is called Quillfeather?");
      expect(answer.cells[0]!.text).toContain("Ada Quillfeather");
      expect(answer.entities.some((e) => e.kind === "record" && e.name === "Ada Quillfeather")).toBe(true);
    });

    it("refuses a record that misses its schema with 400, listing the problems, and stores nothing", async () => {
      const before = await counts();
      const cases: Array<[Record<string, unknown>, unknown[]]> = [
        [{ score: 3 }, [{ field: "name", why: "required" }]],
        [{ name: "B", score: null }, [{ field: "score", why: "required" }]],
        [{ name: "B", score: "3" }, [{ field: "score", why: "expected integer" }]],
        [{ name: "B", score: 3.5 }, [{ field: "score", why: "expected integer" }]],
        [{ name: 42, score: 3, tags: ["a", 1], subscribed: "yes" }, [
          { field: "name", why: "expected string" },
          { field: "subscribed", why: "expected boolean" },
          { field: "tags", why: "expected string[]" },
        ]],
        [{ name: "B", score: 3, budget: "lots" }, [{ field: "budget", why: "expected number" }]],
        [{ name: "B", score: 3, Name: "C", phone: "1" }, [
          { field: "Name", why: "not a field of the schema" },
          { field: "phone", why: "not a field of the schema" },
        ]],
        [{ name: "B", score: 3, constructor: "x", prototype: 1 }, [
          { field: "constructor", why: "not a field of the schema" },
          { field: "prototype", why: "not a field of the schema" },
        ]],
      ];
      for (const [bad, problems] of cases) {
        const res = await submit(keys.submit, { data: bad });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          error: { status: 400, code: "record_schema_mismatch", message: "record does not match its schema" },
          problems,
        });
      }
      // A "__proto__" key, which parsing into an object would drop without a word, is refused by name.
      const raw = '{"action":"object_submit","input":{"data":{"name":"B","score":3,"__proto__":{"admin":true}}}}';
      for (const honeypot of ["", ',"honeypot":"x"']) {
        const body = honeypot ? raw.replace(/}}$/, `${honeypot}}}`) : raw;
        const res = await send(w, "/v1/api/actions", { method: "POST", key: keys.submit, project: w.projectId, headers: { "content-type": "application/json" }, body });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          error: { status: 400, code: "invalid_input", message: 'invalid input: "__proto__" is not accepted as a name' },
        });
      }
      // Data nested 10,000 deep (which JSON.parse reads, but JSON.stringify cannot write) is refused by its depth, spam or not; 100 levels is the bound.
      const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
      for (const [levels, honeypot] of [[10_000, ""], [10_000, ',"honeypot":"x"'], [100, ""]] as const) {
        const body = `{"action":"object_submit","input":{"data":{"name":"B","score":3,"extra":${deep(levels)}}${honeypot}}}`;
        const res = await send(w, "/v1/api/actions", { method: "POST", key: keys.submit, project: w.projectId, headers: { "content-type": "application/json" }, body });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: { status: 400, code: "invalid_input", message: "invalid input: nested deeper than 100 levels" } });
      }
      // 96 levels inside `data` is within the bound: the schema check answers (an unknown field), not the depth check.
      const within = `{"action":"object_submit","input":{"data":{"name":"B","score":3,"extra":${deep(96)}}}}`;
      const res = await send(w, "/v1/api/actions", { method: "POST", key: keys.submit, project: w.projectId, headers: { "content-type": "application/json" }, body: within });
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("record_schema_mismatch");
      expect(await counts()).toEqual(before);
    });

    it("optional fields may be absent or null; null is not stored", async () => {
      const res = await submit(keys.submit, { data: { name: "Brook Tallow", score: 2, budget: null } });
      expect(res.status).toBe(200);
      const { recordId: id } = ((await res.json()) as { result: { recordId: string } }).result;
      const listed = (await (await records(`?schemaId=${leadId}&limit=200`)).json()) as Array<{ recordId: string; data: unknown }>;
      expect(listed.find((r) => r.recordId === id)!.data).toEqual({ name: "Brook Tallow", score: 2 });
    });

    it("a filled honeypot answers the same {recordId}, but the record is never listed or retrieved", async () => {
      const before = await counts();
      const res = await submit(keys.submit, { data: { name: "Zyxwv Spamalot", score: 1 }, honeypot: "http://spam.example" });
      expect(res.status).toBe(200);
      const { recordId: id } = ((await res.json()) as { result: { recordId: string } }).result;
      expect(id).toMatch(/^rec_/);
      const after = await counts();
      expect(after).toEqual({ ...before, records: before.records! + 1 });
      const stored = await w.app.db.get<{ spam: number; cell_id: string | null }>("SELECT spam, cell_id FROM records WHERE record_id = ?", [id]);
      expect(stored).toEqual({ spam: 1, cell_id: null });
      const listed = (await (await records("?limit=200")).json()) as Array<{ recordId: string }>;
      expect(listed.map((r) => r.recordId)).not.toContain(id);
      const answer = await recall("Spamalot");
      expect(answer.cells.some((c) => c.text.includes("Spamalot"))).toBe(false);
      // A bot learns nothing from the answer: data that would not match is accepted the same way.
      const bot = await submit(keys.submit, { data: { whatever: true }, honeypot: "x" });
      expect(bot.status).toBe(200);
      // A blank honeypot is no trap: the record is checked and stored as usual.
      const blank = await submit(keys.submit, { data: { name: "Cato Fenwright", score: 4 }, honeypot: " " });
      expect(blank.status).toBe(200);
      const blankId = ((await blank.json()) as { result: { recordId: string } }).result.recordId;
      expect(((await (await records("?limit=200")).json()) as Array<{ recordId: string }>).map((r) => r.recordId)).toContain(blankId);
    });

    it("an editor's standard key bound to the schema may submit; a viewer's, or a key with no binding, gets 403", async () => {
      const ok = await submit(keys.editorBound, { data: { name: "Dara Whitlock", score: 9 } });
      expect(ok.status).toBe(200);
      const before = await counts();
      for (const key of [keys.viewerBound, w.keys.editor, w.keys.owner, w.keys.bound]) {
        const res = await submit(key, { data: { name: "Eli", score: 1 } });
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({
          error: { status: 403, code: "action_not_available", message: "action not available to an API key" },
        });
      }
      expect(await counts()).toEqual(before);
    });

    it("the submission cannot pick another type: naming one is refused, and the key's schema is the one checked", async () => {
      const before = await counts();
      for (const extra of [{ schemaId: ticketId }, { typeId: ticketId }, { boundTypeId: ticketId }]) {
        const res = await submit(keys.submit, { data: { name: "F", score: 1 }, ...extra });
        expect(res.status).toBe(400);
        const body = (await res.json()) as ErrorBody;
        expect(body.error.code).toBe("invalid_input");
        expect(body.error.message).toMatch(/^invalid input: unknown key "\w+": a record is filed under the schema its key is bound to$/);
      }
      // A Ticket record sent with the Lead key is checked against Lead.
      const wrong = await submit(keys.submit, { data: { title: "Printer on fire" } });
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as ErrorBody).error.message).toBe("record does not match its schema");
      expect(await counts()).toEqual(before);
      // The Ticket key files under Ticket.
      const ticket = await submit(keys.submitTicket, { data: { title: "Printer on fire" } });
      expect(ticket.status).toBe(200);
      const { recordId: id } = ((await ticket.json()) as { result: { recordId: string } }).result;
      expect(((await (await records(`?schemaId=${ticketId}`)).json()) as Array<{ recordId: string; schemaId: string }>)).toEqual([
        expect.objectContaining({ recordId: id, schemaId: ticketId }),
      ]);
    });

    it("a key bound to something that is no schema of the project gets 404 schema not found", async () => {
      const res = await submit(w.keys.submit, { data: { name: "G", score: 1 } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorBody).error).toEqual({ status: 404, code: "schema_not_found", message: "schema not found" });
    });

    it("the records file cannot be replaced or re-read: its records stay", async () => {
      const row = await w.app.db.get<{ file_id: string }>("SELECT file_id FROM artifact_schemas WHERE schema_id = ?", [leadId]);
      const chunkId = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
      const res = await send(w, `/v1/projects/${w.projectId}/files/${row!.file_id}/content`, {
        method: "PUT",
        key: w.keys.editor,
        json: { chunkId },
      });
      expect(res.status).toBe(409);
      const file = await w.app.db.get<{ status: string }>("SELECT status FROM files WHERE file_id = ?", [row!.file_id]);
      expect(file!.status).toBe("ready");
      expect((await recall("Quillfeather")).cells[0]!.text).toContain("Ada Quillfeather");
    });
  });

  describe("the records read", () => {
    it("pages by id with X-Next-Cursor, never lists spam, and counts on the first page", async () => {
      const all = (await (await records("?limit=200")).json()) as Array<{ recordId: string }>;
      const ids = all.map((r) => r.recordId);
      expect(ids).toEqual([...ids].sort());
      const spam = await w.app.db.all<{ record_id: string }>("SELECT record_id FROM records WHERE spam = 1");
      expect(spam.length).toBeGreaterThan(0);
      for (const s of spam) expect(ids).not.toContain(s.record_id);
      const seen: string[] = [];
      let cursor = "";
      let first = true;
      do {
        const res = await records(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-total-count")).toBe(first ? String(ids.length) : null);
        seen.push(...((await res.json()) as Array<{ recordId: string }>).map((r) => r.recordId));
        cursor = res.headers.get("x-next-cursor") ?? "";
        first = false;
      } while (cursor);
      expect(seen).toEqual(ids);
    });

    it("a cursor is bound to its filters; an unknown schemaId is 404 schema not found", async () => {
      const page = await records(`?schemaId=${leadId}&limit=1`);
      const cursor = page.headers.get("x-next-cursor")!;
      expect(cursor).not.toBe("");
      const other = await records(`?schemaId=${ticketId}&cursor=${encodeURIComponent(cursor)}`);
      expect(other.status).toBe(400);
      expect(((await other.json()) as ErrorBody).error.message).toBe("invalid cursor");
      const unknown = await records("?schemaId=sch_0000000000000000000000");
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as ErrorBody).error).toEqual({ status: 404, code: "schema_not_found", message: "schema not found" });
    });

    it("a non-member gets 404 project not found; a submit key gets 403", async () => {
      expect((await records("", w.keys.outsider)).status).toBe(404);
      expect((await records("", keys.submit)).status).toBe(403);
    });
  });
});
