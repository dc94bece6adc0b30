/**
 * MCP resources (in memory, the SDK's own client): the templates tool
 * results link to, each read through the REST endpoints with the same
 * checks; the project's files listed and paged; JSON-RPC errors carrying the
 * app's message; and the two REST reads they added (a file's text, one
 * entity).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const GUIDE = "# Billing guide\r\n\r\nThe billing service charges cards nightly.\r\nThe team of Alice Martin owns the billing service at Acme Corp.\r\n";
const SERVER_TS = "/** Per-request state. */\nexport class Context {\n  /** Reads one header. */\n  header(name: string): string {\n    return name;\n  }\n}\n";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const report = (title: string) =>
  `# Incident: ${title}\n\n- Severity: high\n- Owner: Alice\n- Service: billing\n- Date: 2026-03-02\n\n${title} affected payments for a while.\n`;

type Json = Record<string, unknown>;
const uri = (w: TestWorld, collection: string, id: string) => `pks://projects/${w.projectId}/${collection}/${id}`;
const jsonOf = (r: ReadResourceResult, i = 0) => JSON.parse((r.contents[i] as { text: string }).text) as Json;

describe("MCP resources", () => {
  let w: TestWorld;
  let viewer: Client;
  const ids: Record<string, string> = {};

  const get = async (path: string, key = w.keys.viewer) => {
    const res = await send(w, path, { key });
    return { status: res.status, body: (await res.json()) as Json & Json[] };
  };
  const dispatch = async (action: string, input: Json, key = w.keys.owner) => {
    const res = await send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action, input } });
    expect(res.status, action).toBe(200);
    return ((await res.json()) as { result: Json }).result;
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { body } = await ingest(w, [
      fileEntry("docs/guide.md", GUIDE),
      fileEntry("src/server.ts", SERVER_TS),
      fileEntry("img/logo.png", PNG),
      fileEntry("incidents/payments.md", report("Payment outage")),
      fileEntry("incidents/login.md", report("Login failures")),
      fileEntry("incidents/search.md", report("Search latency")),
      ...Array.from({ length: 100 }, (_, i) => fileEntry(`notes/n${String(i).padStart(3, "0")}.txt`, `Note ${i} about billing.\n`)),
    ]);
    for (const a of body.accepted) ids[a.path] = a.fileId;
    await w.app.worker.whenIdle();
    viewer = await connectMcpClient(w, { key: w.keys.viewer });
  });
  afterAll(async () => {
    await viewer.close();
    await w.close();
  });

  it("declares resources with subscriptions and list changes, and lists the templates tool results link to", async () => {
    expect(viewer.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, logging: {}, prompts: {}, completions: {} });
    const { resourceTemplates } = await viewer.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "pks://projects/{projectId}/files/{fileId}",
      "pks://projects/{projectId}/cells/{cellId}",
      "pks://projects/{projectId}/entities/{entityId}",
      "pks://projects/{projectId}/artifacts/{artifactId}",
      "pks://projects/{projectId}/types/{entityId}",
      "pks://projects/{projectId}/ingest",
    ]);
  });

  it("resources/list pages the project's live files, 100 a page, with the REST cursor", async () => {
    const first = await viewer.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await viewer.listResources({ cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.resources, ...second.resources];
    expect(all).toHaveLength(106);
    expect(new Set(all.map((r) => r.uri)).size).toBe(106);
    const guide = all.find((r) => r.name === "docs/guide.md")!;
    expect(guide).toEqual({
      uri: uri(w, "files", ids["docs/guide.md"]!),
      name: "docs/guide.md",
      title: "guide.md",
      description: "document file, ready",
      mimeType: "text/markdown",
      size: GUIDE.length,
    });
    await expect(viewer.listResources({ cursor: "bogus" })).rejects.toMatchObject({ code: -32602, message: "MCP error -32602: invalid cursor" });
  });

  it("a text file reads as its text (LF line ends, its own media type) and its File record; a binary file as the record only", async () => {
    const guideUri = uri(w, "files", ids["docs/guide.md"]!);
    const guide = await viewer.readResource({ uri: guideUri });
    expect(guide.contents).toHaveLength(2);
    expect(guide.contents[0]).toEqual({ uri: guideUri, mimeType: "text/markdown", text: GUIDE.replace(/\r\n/g, "\n") });
    expect(guide.contents[1]).toMatchObject({ uri: guideUri, mimeType: "application/json" });
    const rest = await get(`/v1/projects/${w.projectId}/files/${ids["docs/guide.md"]}`);
    expect(jsonOf(guide, 1)).toEqual(rest.body);

    const png = await viewer.readResource({ uri: uri(w, "files", ids["img/logo.png"]!) });
    expect(png.contents).toHaveLength(1);
    expect(jsonOf(png)).toMatchObject({ fileId: ids["img/logo.png"], path: "img/logo.png" });
  });

  it("a cell reads with its faction and file path, an entity with its roles and cells, as the REST reads answer them", async () => {
    const cells = await get(`/v1/projects/${w.projectId}/cells?fileId=${ids["docs/guide.md"]}`);
    const cell = (cells.body as Json[]).find((c) => String(c.text).includes("Alice Martin"))!;
    const read = await viewer.readResource({ uri: uri(w, "cells", cell.cellId as string) });
    const context = jsonOf(read);
    expect(context).toEqual((await get(`/v1/projects/${w.projectId}/cells/${cell.cellId}`)).body);
    expect(context).toMatchObject({ cell: { cellId: cell.cellId }, faction: { factionId: cell.factionId }, filepath: "docs/guide.md" });

    const entities = await get(`/v1/projects/${w.projectId}/entities?q=Alice%20Martin`);
    const alice = (entities.body as Json[])[0]!;
    const entity = jsonOf(await viewer.readResource({ uri: uri(w, "entities", alice.entityId as string) }));
    expect(entity.entity).toEqual({ ...alice, roles: [] });
    expect((entity.cells as Json[]).length).toBeGreaterThan(0);
    expect((entity.cells as Json[]).every((c) => (c.entityIds as string[]).includes(alice.entityId as string))).toBe(true);
    expect(entity.moreCells).toBe(false);
  });

  it("an artifact reads as its Markdown body and its citations; a type as its schema; the ingest lease as JSON", async () => {
    const queued = await dispatch("artifact_update", { purpose: "summary of the payment incidents" });
    await w.app.tasks.whenIdle();
    const task = (await get(`/v1/tasks/${queued.taskId}`)).body as unknown as { result: { artifactId: string } };
    const artifactUri = uri(w, "artifacts", task.result.artifactId);
    const artifact = await viewer.readResource({ uri: artifactUri });
    const rest = (await get(`/v1/projects/${w.projectId}/artifacts/${task.result.artifactId}`)).body as Json;
    expect(artifact.contents[0]).toEqual({ uri: artifactUri, mimeType: "text/markdown", text: rest.body });
    const { body: _body, ...meta } = rest;
    expect(jsonOf(artifact, 1)).toEqual(meta);

    const proposals = await dispatch("type_proposals", {});
    const proposalId = (proposals.proposals as Array<{ proposalId: string }>)[0]!.proposalId;
    const { entityId } = (await dispatch("type_proposal_settle", { proposalId, decision: "confirm" })) as { entityId: string };
    const type = jsonOf(await viewer.readResource({ uri: uri(w, "types", entityId) }));
    expect(type.categorySchema).toEqual((await dispatch("type_schema", { entityId }, w.keys.viewer)).categorySchema);
    expect(type.type).toMatchObject({ entityId, kind: "category" });

    const lease = jsonOf(await viewer.readResource({ uri: `pks://projects/${w.projectId}/ingest` }));
    expect(lease).toEqual((await get(`/v1/projects/${w.projectId}/ingest`)).body);
    expect(lease).toMatchObject({ state: "idle", files: { queued: 0, reading: 0, ready: 106, failed: 0 } });
  });

  it("ingest_status answers the lease as GET …/ingest does, with no failed files to name", async () => {
    const call = await viewer.callTool({ name: "ingest_status", arguments: {} });
    expect(call.isError).toBeFalsy();
    const lease = (await get(`/v1/projects/${w.projectId}/ingest`)).body;
    expect(call.structuredContent).toEqual({ action: "ingest_status", result: { ...lease, failedFiles: [] } });
    const refused = await viewer.callTool({ name: "ingest_status", arguments: { projectId: "x" } });
    expect(refused.structuredContent).toEqual({ error: { status: 400, code: "invalid_input", message: 'invalid input: unknown argument "projectId"; accepted: none' } });
  });

  it("errors are JSON-RPC errors with the app's message: -32002 for what is not there, -32602 for a URI that names nothing", async () => {
    const cases: Array<[string, number, string]> = [
      [uri(w, "files", "fil_nope"), -32002, "file not found"],
      [uri(w, "cells", "cel_nope"), -32002, "cell not found"],
      [uri(w, "entities", "ent_nope"), -32002, "entity not found"],
      [uri(w, "artifacts", "art_nope"), -32002, "artifact not found"],
      [uri(w, "types", "ent_nope"), -32002, "entity not found"],
      [`pks://projects/${w.otherProjectId}/files/${ids["docs/guide.md"]}`, -32002, "project not found"],
      [`pks://projects/${w.projectId}/ingest/x`, -32602, `unknown resource URI "pks://projects/${w.projectId}/ingest/x"`],
      ["file:///etc/passwd", -32602, 'unknown resource URI "file:///etc/passwd"'],
      [`pks://projects/${w.projectId}/files/%E0%A4%A`, -32602, "unknown resource URI"],
    ];
    for (const [u, code, message] of cases) {
      const err = await viewer.readResource({ uri: u }).then(
        () => undefined,
        (e: { code: number; message: string }) => e,
      );
      expect(err, u).toBeDefined();
      expect(err!.code, u).toBe(code);
      expect(err!.message, u).toContain(message);
    }
    const raw = await viewer.request({ method: "resources/read", params: {} } as never, {} as never).catch((e: { code: number; message: string }) => e);
    expect(raw).toMatchObject({ code: -32602 });
  });

  it("REST: a file's text (null for a file that is not text) and one entity, each 404 when unknown", async () => {
    const text = await get(`/v1/projects/${w.projectId}/files/${ids["src/server.ts"]}/text`);
    expect(text).toEqual({
      status: 200,
      body: { fileId: ids["src/server.ts"], path: "src/server.ts", contentType: expect.any(String), fileType: "code", fileSize: SERVER_TS.length, text: SERVER_TS },
    });
    expect((await get(`/v1/projects/${w.projectId}/files/${ids["img/logo.png"]}/text`)).body.text).toBeNull();
    expect(await get(`/v1/projects/${w.projectId}/files/fil_nope/text`)).toEqual({
      status: 404,
      body: { error: { status: 404, code: "file_not_found", message: "file not found" } },
    });
    expect((await get(`/v1/projects/${w.projectId}/files/${ids["src/server.ts"]}/text`, w.keys.outsider)).status).toBe(404);

    const [alice] = (await get(`/v1/projects/${w.projectId}/entities?q=Alice%20Martin`)).body as Json[];
    const put = await send(w, `/v1/projects/${w.projectId}/entities/${alice!.entityId}/roles`, { method: "PUT", key: w.keys.editor, json: { roles: ["owner"] } });
    expect(put.status).toBe(200);
    expect(await get(`/v1/projects/${w.projectId}/entities/${alice!.entityId}`)).toEqual({ status: 200, body: { ...alice, roles: ["owner"] } });
    expect(await get(`/v1/projects/${w.projectId}/entities/ent_nope`)).toEqual({
      status: 404,
      body: { error: { status: 404, code: "entity_not_found", message: "entity not found" } },
    });
  });
});
