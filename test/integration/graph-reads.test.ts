import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cell, Entity, Faction } from "../../src/graph/resources.js";
import { newId } from "../../src/ids.js";
import { setMembership } from "../../src/store/access/memberships.js";
import { createProject } from "../../src/store/access/projects.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";


const GUIDE = `# Guide

Payments settle nightly. Refunds take five days.

## Setup

- Install the agent.
- Start the agent.

| key | value |
| --- | --- |
| region | eu |
`;

/** Links cells to a new entity the way entity extraction will (until it lands). */
async function linkEntity(w: TestWorld, projectId: string, name: string, kind: string, cellIds: string[], typeEntityId: string | null = null) {
  const entityId = newId("ent");
  await w.app.deps.db.execute(
    `INSERT INTO entity_rows (entity_id, project_rowid, name, norm_name, kind, type_entity_id)
     VALUES (?, (SELECT rowid FROM projects WHERE project_id = ?), ?, ?, ?, ?)`,
    [entityId, projectId, name, name.toLowerCase(), kind, typeEntityId],
  );
  for (const c of cellIds) await w.app.deps.db.execute(
      "INSERT INTO cell_entities (cell_rowid, entity_rowid) SELECT c.rowid, e.rowid FROM cells c, entities e WHERE c.cell_id = ? AND e.entity_id = ?",
      [c, entityId],
    );
  return entityId;
}

async function getJson<T>(w: TestWorld, path: string, key = w.keys.viewer) {
  const res = await send(w, path, { key });
  return { res, body: (await res.json()) as T, next: res.headers.get("x-next-cursor"), total: res.headers.get("x-total-count") };
}

/** Follows X-Next-Cursor to the end, returning every row. */
async function allPages<T>(w: TestWorld, path: string): Promise<T[]> {
  const rows: T[] = [];
  let cursor = "";
  for (let i = 0; i < 1000; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const page = await getJson<T[]>(w, `${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(page.res.status).toBe(200);
    rows.push(...page.body);
    cursor = page.next ?? "";
    if (!cursor) return rows;
  }
  throw new Error("paging did not end");
}

describe("graph reads over REST", () => {
  let w: TestWorld;
  let base: string;
  let guideId: string;
  let notesId: string;
  let cells: Cell[];
  let agent: string;
  let category: string;

  beforeAll(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    base = `/v1/projects/${w.projectId}`;
    const { body } = await ingest(w, [fileEntry("docs/guide.md", GUIDE), fileEntry("notes.txt", "The agent runs hourly. It reports to the hub.\n")]);
    [guideId, notesId] = body.accepted.map((a) => a.fileId) as [string, string];
    await w.app.worker.whenIdle();
    cells = await allPages<Cell>(w, `${base}/cells?limit=3`);
    const agentCells = cells.filter((c) => /agent/i.test(c.text)).map((c) => c.cellId);
    category = await linkEntity(w, w.projectId, "Component", "category", [cells[0]!.cellId]);
    agent = await linkEntity(w, w.projectId, "Agent", "product", agentCells, category);
    // The Agent's sections are filed under the type, as confirming a proposed type files them.
    const filed = new Set([...cells.filter((c) => /agent/i.test(c.text)), cells[0]!].map((c) => c.factionId));
    for (const factionId of filed) {
      await w.app.deps.db.execute("INSERT INTO category_members (faction_id, category_entity_id, entity_id) VALUES (?, ?, ?)", [factionId, category, agent]);
    }
    await linkEntity(w, w.projectId, "Orphan", "concept", []);
  });
  afterAll(async () => w.close());

  describe("cells", () => {
    it("pages every live cell once, by id, with X-Next-Cursor empty on the last page", async () => {
      expect(cells).toHaveLength(9);
      expect(new Set(cells.map((c) => c.cellId)).size).toBe(9);
      expect(cells.map((c) => c.cellId)).toEqual([...cells.map((c) => c.cellId)].sort());
      const one = cells.find((c) => c.text === "Refunds take five days.")!;
      expect(one).toMatchObject({ projectId: w.projectId, fileIds: [guideId], entityIds: [] });
      const first = await getJson<Cell[]>(w, `${base}/cells`);
      expect(first.next).toBe("");
      expect(first.total).toBeNull();
    });

    it("filters by fileId (comma list), factionId, parentCellId, entityId, each first page counted", async () => {
      const notes = await getJson<Cell[]>(w, `${base}/cells?fileId=${notesId}`);
      expect(notes.body.map((c) => c.text).sort()).toEqual(["It reports to the hub.", "The agent runs hourly."]);
      expect(notes.total).toBe("2");
      const both = await getJson<Cell[]>(w, `${base}/cells?fileId=${notesId},${guideId}&limit=4`);
      expect(both.total).toBe("9");
      expect(both.body).toHaveLength(4);
      const next = await getJson<Cell[]>(w, `${base}/cells?fileId=${notesId},${guideId}&limit=4&cursor=${both.next}`);
      expect(next.total).toBeNull();

      const setup = cells.find((c) => c.text === "Setup")!;
      const children = await getJson<Cell[]>(w, `${base}/cells?parentCellId=${setup.cellId}`);
      expect(children.body.map((c) => c.text).sort()).toEqual(["Install the agent.", "Start the agent.", "key: region; value: eu"].sort());
      const install = cells.find((c) => c.text === "Install the agent.")!;
      const sameFaction = await getJson<Cell[]>(w, `${base}/cells?factionId=${install.factionId}`);
      expect(sameFaction.body.map((c) => c.text).sort()).toEqual(["Install the agent.", "Start the agent."]);
      expect(sameFaction.total).toBe("2");

      const ofAgent = await getJson<Cell[]>(w, `${base}/cells?entityId=${agent}`);
      expect(ofAgent.body.map((c) => c.text).sort()).toEqual(["Install the agent.", "Start the agent.", "The agent runs hourly."]);
      expect(ofAgent.total).toBe("3");
      expect(ofAgent.body.every((c) => c.entityIds.includes(agent))).toBe(true);
    });

    it("an entityId narrowing factionId or fileId carries no count", async () => {
      const install = cells.find((c) => c.text === "Install the agent.")!;
      const narrowed = await getJson<Cell[]>(w, `${base}/cells?entityId=${agent}&factionId=${install.factionId}`);
      expect(narrowed.body).toHaveLength(2);
      expect(narrowed.total).toBeNull();
      const byFile = await getJson<Cell[]>(w, `${base}/cells?entityId=${agent}&fileId=${notesId}`);
      expect(byFile.body.map((c) => c.text)).toEqual(["The agent runs hourly."]);
      expect(byFile.total).toBeNull();
    });

    it("a fileId read over more than 30 sections carries no count", async () => {
      const many = Array.from({ length: 31 }, (_, i) => `Paragraph ${i}.`).join("\n\n");
      const { body } = await ingest(w, [fileEntry("many.md", many)]);
      await w.app.worker.whenIdle();
      const res = await getJson<Cell[]>(w, `${base}/cells?fileId=${body.accepted[0]!.fileId}&limit=5`);
      expect(res.body).toHaveLength(5);
      expect(res.total).toBeNull();
    });

    it("400 invalid cursor for a tampered cursor or one from another read; 404 for unknown entities and projects", async () => {
      const page = await getJson<Cell[]>(w, `${base}/cells?limit=2`);
      const cursor = page.next!;
      for (const path of [
        `${base}/cells?limit=2&cursor=${cursor}x`,
        `${base}/cells?limit=2&cursor=garbage`,
        `${base}/cells?limit=2&fileId=${notesId}&cursor=${cursor}`,
        `${base}/factions?limit=2&cursor=${cursor}`,
      ]) {
        const res = await getJson<{ error: { message: string } }>(w, path);
        expect(res.res.status, path).toBe(400);
        expect(res.body.error.message).toBe("invalid cursor");
      }
      const other = await send(w, `/v1/projects/${w.otherProjectId}/cells?cursor=${cursor}`, { key: w.keys.outsider });
      expect(((await other.json()) as { error: { message: string } }).error.message).toBe("invalid cursor");
      const missing = await getJson<{ error: { message: string } }>(w, `${base}/cells?entityId=ent_nope`);
      expect(missing.res.status).toBe(404);
      expect(missing.body.error.message).toBe("entity not found");
      const foreign = await send(w, `${base}/cells`, { key: w.keys.outsider });
      expect(foreign.status).toBe(404);
      expect(((await foreign.json()) as { error: { message: string } }).error.message).toBe("project not found");
    });

    it("clamps limit to 200 and refuses a non-integer", async () => {
      expect((await getJson<Cell[]>(w, `${base}/cells?limit=1000000000`)).res.status).toBe(200);
      expect((await getJson<unknown>(w, `${base}/cells?limit=abc`)).res.status).toBe(400);
    });
  });

  describe("entities", () => {
    it("lists only entities that back a live cell, with cellCount and projectId", async () => {
      const all = await allPages<Entity>(w, `${base}/entities?limit=1`);
      const names = all.map((e) => e.name);
      expect(names).toContain("Agent");
      expect(names).toContain("Component");
      expect(names).not.toContain("Orphan");
      expect(new Set(all.map((e) => e.entityId)).size).toBe(all.length);
      expect(all.every((e) => e.cellCount > 0)).toBe(true);
      expect(all.find((e) => e.name === "Agent")).toMatchObject({ kind: "product", cellCount: 3, projectId: w.projectId, typeEntityId: category });
    });

    it("entityType=Category lists the types; a kind or a type name filters", async () => {
      expect((await getJson<Entity[]>(w, `${base}/entities?entityType=Category`)).body.map((e) => e.name)).toEqual(["Component"]);
      const products = (await getJson<Entity[]>(w, `${base}/entities?entityType=product`)).body;
      expect(products.map((e) => e.name)).toContain("Agent");
      expect(products.every((e) => e.kind === "product")).toBe(true);
      expect((await getJson<Entity[]>(w, `${base}/entities?entityType=component`)).body.map((e) => e.name)).toEqual(["Agent"]);
      expect((await getJson<Entity[]>(w, `${base}/entities?entityType=Nothing`)).body).toEqual([]);
    });

    it("roles are set by an editor and filter reads, alone or with entityType", async () => {
      const viewer = await send(w, `${base}/entities/${agent}/roles`, { method: "PUT", key: w.keys.viewer, json: { roles: ["Self"] } });
      expect(viewer.status).toBe(403);
      const put = await send(w, `${base}/entities/${agent}/roles`, { method: "PUT", key: w.keys.editor, json: { roles: ["Self", "Lead", "Self"] } });
      expect(await put.json()).toEqual({ entityId: agent, roles: ["Lead", "Self"] });
      expect((await getJson<Entity[]>(w, `${base}/entities?role=Self`)).body.map((e) => e.name)).toEqual(["Agent"]);
      expect((await getJson<Entity[]>(w, `${base}/entities?role=Self&entityType=Category`)).body).toEqual([]);
      expect((await getJson<Entity[]>(w, `${base}/entities?role=AE`)).body).toEqual([]);
      const missing = await send(w, `${base}/entities/ent_nope/roles`, { method: "PUT", key: w.keys.editor, json: { roles: [] } });
      expect(missing.status).toBe(404);
      const bad = await send(w, `${base}/entities/${agent}/roles`, { method: "PUT", key: w.keys.editor, json: { roles: "Self" } });
      expect(bad.status).toBe(400);
    });

    it("q ranks names best first, unpaginated, up to limit", async () => {
      const more = cells.slice(0, 2).map((c) => c.cellId);
      await linkEntity(w, w.projectId, "Agent Pool", "concept", more);
      await linkEntity(w, w.projectId, "Travel agent", "concept", more);
      const res = await getJson<Entity[]>(w, `${base}/entities?q=agent`);
      expect(res.body.map((e) => e.name)).toEqual(["Agent", "Agent Pool", "Travel agent"]);
      expect(res.next).toBe("");
      expect((await getJson<Entity[]>(w, `${base}/entities?q=agent&limit=1`)).body.map((e) => e.name)).toEqual(["Agent"]);
    });
  });

  describe("factions", () => {
    it("factionIds and fileId answer the whole selection; fileIds derive from cells", async () => {
      const ofGuide = await getJson<Faction[]>(w, `${base}/factions?fileId=${guideId}`);
      expect(ofGuide.next).toBe("");
      expect(ofGuide.body.map((f) => f.factionType).sort()).toEqual(["heading", "heading", "list", "table", "text"]);
      expect(ofGuide.body.every((f) => f.fileIds.length === 1 && f.fileIds[0] === guideId)).toBe(true);
      for (const f of ofGuide.body) {
        expect(Object.keys(f.sourceLocation).sort()).toEqual(["lineEnd", "lineStart"]);
        expect(f.sourceLocation.lineStart).toBeGreaterThan(0);
      }
      const ids = ofGuide.body.slice(0, 2).map((f) => f.factionId);
      const cited = await getJson<Faction[]>(w, `${base}/factions?factionIds=${ids.join(",")}`);
      expect(cited.body.map((f) => f.factionId).sort()).toEqual([...ids].sort());
    });

    it("entityId and categoryEntityId page with a first-page count; factionType filters", async () => {
      const ofAgent = await getJson<Faction[]>(w, `${base}/factions?entityId=${agent}`);
      expect(ofAgent.total).toBe("2");
      expect(ofAgent.body.map((f) => f.factionType).sort()).toEqual(["list", "text"]);
      const asType = await getJson<Faction[]>(w, `${base}/factions?categoryEntityId=${category}&limit=1`);
      const typed = new Set([...cells.filter((c) => /agent/i.test(c.text)), cells[0]!].map((c) => c.factionId));
      expect(asType.total).toBe(String(typed.size));
      expect(asType.body).toHaveLength(1);
      expect(asType.next).not.toBe("");
      const lists = await allPages<Faction>(w, `${base}/factions?factionType=list&limit=1`);
      expect(lists).toHaveLength(1);
      expect((await getJson<unknown>(w, `${base}/factions?factionType=poem`)).res.status).toBe(400);
      expect((await getJson<unknown>(w, `${base}/factions?entityId=ent_nope`)).res.status).toBe(404);
    });
  });

  describe("files", () => {
    it("lists live files with path prefix and status filters, and reads one", async () => {
      const all = await allPages<{ fileId: string; path: string; status: string }>(w, `${base}/files?limit=1`);
      expect(all.map((f) => f.path).sort()).toEqual(["docs/guide.md", "many.md", "notes.txt"]);
      expect((await getJson<Array<{ path: string }>>(w, `${base}/files?path=docs/`)).body.map((f) => f.path)).toEqual(["docs/guide.md"]);
      expect((await getJson<unknown[]>(w, `${base}/files?status=failed`)).body).toEqual([]);
      expect((await getJson<unknown>(w, `${base}/files?status=weird`)).res.status).toBe(400);
      const one = await getJson<Record<string, unknown>>(w, `${base}/files/${guideId}`);
      expect(one.body).toMatchObject({ fileId: guideId, name: "guide.md", filepath: "docs", ext: "md", fileType: "document", status: "ready" });
      const missing = await getJson<{ error: { message: string } }>(w, `${base}/files/fil_nope`);
      expect(missing.body.error.message).toBe("file not found");
    });
  });
});

describe("ancestors, retirement and paging during ingestion", () => {
  it("a child project sees its parents' rows inline, each keeping its own projectId", async () => {
    const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    const child = await createProject(w.app.deps.db, { name: "child", parentId: w.projectId });
    await setMembership(w.app.deps.db, child.projectId, w.userIds.editor, "editor");
    await ingest(w, [fileEntry("parent.md", "Parent fact one. Parent fact two.\n")]);
    const res = await send(w, `/v1/projects/${child.projectId}/ingest`, { method: "POST", key: w.keys.editor, json: { files: [fileEntry("child.md", "Child fact.\n")] } });
    expect(res.status).toBe(200);
    await w.app.worker.whenIdle();
    const seen = await send(w, `/v1/projects/${child.projectId}/cells`, { key: w.keys.editor });
    const rows = (await seen.json()) as Cell[];
    expect(rows.map((r) => [r.text, r.projectId === child.projectId ? "child" : r.projectId === w.projectId ? "parent" : "?"]).sort()).toEqual([
      ["Child fact.", "child"],
      ["Parent fact one.", "parent"],
      ["Parent fact two.", "parent"],
    ]);
    const parentView = await send(w, `/v1/projects/${w.projectId}/cells`, { key: w.keys.editor });
    expect(((await parentView.json()) as Cell[]).map((r) => r.text).sort()).toEqual(["Parent fact one.", "Parent fact two."]);
    await w.close();
  });

  it("retired rows never appear", async () => {
    const w = await createTestWorld();
    const first = await ingest(w, [fileEntry("a.md", "Old one.\n\nKept.\n")]);
    await w.app.worker.whenIdle();
    await ingest(w, [fileEntry("a.md", "New one.\n\nKept.\n")]);
    await w.app.worker.whenIdle();
    const texts = ((await (await send(w, `/v1/projects/${w.projectId}/cells`, { key: w.keys.viewer })).json()) as Cell[]).map((c) => c.text);
    expect(texts.sort()).toEqual(["Kept.", "New one."]);
    const factions = (await (await send(w, `/v1/projects/${w.projectId}/factions?fileId=${first.body.accepted[0]!.fileId}`, { key: w.keys.viewer })).json()) as Faction[];
    expect(factions).toHaveLength(2);
    await w.close();
  });

  it("paging while ingestion writes: no duplicates, no gaps among rows that stay", async () => {
    const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    const files = Array.from({ length: 20 }, (_, i) => fileEntry(`seed${i}.md`, `Seed ${i} first. Seed ${i} second.\n`));
    await ingest(w, files);
    await w.app.worker.whenIdle();
    const before = await allPages<Cell>(w, `/v1/projects/${w.projectId}/cells?limit=200`);
    const seen: Cell[] = [];
    let cursor = "";
    let round = 0;
    do {
      const page = await getJson<Cell[]>(w, `/v1/projects/${w.projectId}/cells?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.body);
      cursor = page.next ?? "";
      await ingest(w, [fileEntry(`new${round++}.md`, `Fresh fact ${round}. Another fresh fact ${round}.\n`)]);
      await w.app.worker.whenIdle();
    } while (cursor);
    const ids = seen.map((c) => c.cellId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of before) expect(ids).toContain(c.cellId);
    await w.close();
  });
});
