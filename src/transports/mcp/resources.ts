import { createHash } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { McpContext, McpFeature } from "./context.js";
import { fromAppError, handleRequest, invalidParams } from "./protocol-error.js";
import type { RawParams } from "./protocol-error.js";
import { runEndpoint, runPage, sessionProject } from "./rest-read.js";
import { projectWatch } from "./watch.js";
import { lookupTable } from "../../lookup.js";

/** What a resource URI names: a kind of thing in a project, and its id (none for the project's ingest lease). */
export interface ResourceRef {
  projectId: string;
  kind: "file" | "cell" | "entity" | "artifact" | "type" | "ingest";
  id: string;
}

const COLLECTIONS = lookupTable<ResourceRef["kind"]>({
  files: "file",
  cells: "cell",
  entities: "entity",
  artifacts: "artifact",
  types: "type",
});

/** Files per `resources/list` page. */
const LIST_PAGE = 100;
/** Cells an entity's resource shows, at most (the rest are read with `cells?entityId=`). */
const ENTITY_CELLS = 20;
/** URIs one session may subscribe to. */
const MAX_SUBSCRIPTIONS = 100;

/** The URI templates the server reads: exactly the URIs tool results link to. */
export const RESOURCE_TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: "pks://projects/{projectId}/files/{fileId}",
    name: "file",
    title: "Project file",
    description: "A file's text (with its own media type) and its File record as JSON; a file that is not text gives the record only.",
  },
  {
    uriTemplate: "pks://projects/{projectId}/cells/{cellId}",
    name: "cell",
    title: "Cell",
    description: "One claim with its faction (the span it was read from, with lines or pages), its file's path and its neighbours, as JSON.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "pks://projects/{projectId}/entities/{entityId}",
    name: "entity",
    title: "Entity",
    description: `An entity (name, kind, roles, live cell count) and its first ${ENTITY_CELLS} cells, as JSON.`,
    mimeType: "application/json",
  },
  {
    uriTemplate: "pks://projects/{projectId}/artifacts/{artifactId}",
    name: "artifact",
    title: "Artifact",
    description: "An artifact's Markdown body (each claim citing its cell) and, as JSON, its citations, purpose and staleness.",
  },
  {
    uriTemplate: "pks://projects/{projectId}/types/{entityId}",
    name: "type",
    title: "Type schema",
    description: "A type entity and its schema (fields and version, as type_schema reads it), as JSON.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "pks://projects/{projectId}/ingest",
    name: "ingest",
    title: "Ingest status",
    description: "The project's ingestion lease: state (reading or idle), corpus version and file counts, as JSON.",
    mimeType: "application/json",
  },
];

const TEMPLATE_LIST = RESOURCE_TEMPLATES.map((t) => t.uriTemplate).join(", ");

/**
 * Parses a resource URI, `pks://projects/{projectId}/{files|cells|entities|artifacts|types}/{id}`
 * or `pks://projects/{projectId}/ingest`, each part percent-encoded as
 * `encodeURIComponent` writes it; anything else is -32602 naming the forms.
 */
export function parseResourceUri(uri: string): ResourceRef {
  const m = /^pks:\/\/projects\/([^/?#]+)\/(?:(files|cells|entities|artifacts|types)\/([^/?#]+)|(ingest))$/.exec(uri);
  const bad = () => invalidParams(`unknown resource URI "${uri.slice(0, 300)}"; resources are ${TEMPLATE_LIST}`);
  if (!m) throw bad();
  try {
    const projectId = decodeURIComponent(m[1]!);
    if (m[4]) return { projectId, kind: "ingest", id: "" };
    return { projectId, kind: COLLECTIONS[m[2]!]!, id: decodeURIComponent(m[3]!) };
  } catch {
    throw bad();
  }
}

const json = (uri: string, value: unknown) => ({ uri, mimeType: "application/json", text: JSON.stringify(value) });

/**
 * Reads one resource through the REST endpoints, as the session's caller
 * and with the same checks: the project is the URI's, so a key reads here
 * exactly what it reads over REST. Failures are the app's errors (404 →
 * -32002 with its message, e.g. `file not found`).
 */
export async function readResource(ctx: McpContext, uri: string): Promise<ReadResourceResult> {
  const ref = parseResourceUri(uri);
  const { projectId, id } = ref;
  try {
    switch (ref.kind) {
      case "file": {
        const [file, text] = (await Promise.all([
          runEndpoint(ctx, "files.get", projectId, { params: { fileId: id } }),
          runEndpoint(ctx, "files.text", projectId, { params: { fileId: id } }),
        ])) as [Record<string, unknown>, { text: string | null; contentType: string }];
        const record = json(uri, file);
        if (text.text === null) return { contents: [record] };
        return { contents: [{ uri, mimeType: text.contentType, text: text.text }, record] };
      }
      case "cell":
        return { contents: [json(uri, await runEndpoint(ctx, "cells.get", projectId, { params: { cellId: id } }))] };
      case "entity": {
        const entity = await runEndpoint(ctx, "entities.get", projectId, { params: { entityId: id } });
        const cells = await runPage(ctx, "cells.list", projectId, { query: { entityId: id, limit: String(ENTITY_CELLS) } });
        return { contents: [json(uri, { entity, cells: cells.rows, moreCells: cells.nextCursor !== "" })] };
      }
      case "artifact": {
        const { body, ...artifact } = (await runEndpoint(ctx, "artifacts.get", projectId, { params: { artifactId: id } })) as { body: string };
        return { contents: [{ uri, mimeType: "text/markdown", text: body }, json(uri, artifact)] };
      }
      case "type": {
        const entity = await runEndpoint(ctx, "entities.get", projectId, { params: { entityId: id } });
        const { principal } = ctx.caller();
        const { result } = await ctx.service.invoke(principal, { action: "type_schema", input: { entityId: id }, projectId });
        return { contents: [json(uri, { type: entity, ...(result as object) })] };
      }
      case "ingest":
        return { contents: [json(uri, await runEndpoint(ctx, "ingest.lease", projectId))] };
    }
  } catch (err) {
    throw fromAppError(err);
  }
}

/** A page of the session project's live files as resources (`files.list`, 100 a page, its cursor passed through). */
async function listResources(ctx: McpContext, params: RawParams): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const cursor = params.cursor;
  if (cursor !== undefined && typeof cursor !== "string") throw invalidParams("params.cursor must be the nextCursor of an earlier resources/list");
  try {
    const projectId = await sessionProject(ctx);
    const page = await runPage<FileRow>(ctx, "files.list", projectId, { query: { cursor: cursor || undefined, limit: String(LIST_PAGE) } });
    const resources = page.rows.map(
      (f): Resource => ({
        uri: `pks://projects/${encodeURIComponent(projectId)}/files/${encodeURIComponent(f.fileId)}`,
        name: f.path,
        title: f.name,
        description: `${f.fileType} file, ${f.status}`,
        mimeType: f.contentType,
        size: f.fileSize,
      }),
    );
    return { resources, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  } catch (err) {
    throw fromAppError(err);
  }
}

interface FileRow {
  fileId: string;
  path: string;
  name: string;
  fileType: string;
  contentType: string;
  fileSize: number;
  status: string;
}

function uriParam(params: RawParams): string {
  if (typeof params.uri !== "string" || params.uri === "") throw invalidParams(`params.uri must name a resource: ${TEMPLATE_LIST}`);
  return params.uri;
}

/** A fingerprint of what a resource reads as now: a subscription is told when it changes. */
function fingerprint(result: ReadResourceResult): string {
  return createHash("sha256").update(JSON.stringify(result.contents)).digest("base64url");
}

/**
 * Subscriptions of one session: each URI with the fingerprint of its last
 * read. When the project's lease moves (files queued, read, failed, or the
 * corpus version), each subscribed resource is read again and
 * `notifications/resources/updated` sent for those that changed — or
 * could no longer be read.
 */
class Subscriptions {
  readonly #seen = new Map<string, string>();

  constructor(
    readonly server: Server,
    readonly ctx: McpContext,
  ) {}

  async add(uri: string): Promise<void> {
    if (!this.#seen.has(uri) && this.#seen.size >= MAX_SUBSCRIPTIONS) {
      throw invalidParams(`a session subscribes to at most ${MAX_SUBSCRIPTIONS} resources; unsubscribe from one first`);
    }
    this.#seen.set(uri, fingerprint(await readResource(this.ctx, uri)));
  }

  remove(uri: string): void {
    this.#seen.delete(uri);
  }

  async recheck(): Promise<void> {
    for (const [uri, before] of this.#seen) {
      const now = await readResource(this.ctx, uri).then(fingerprint, () => "gone");
      if (now === before) continue;
      this.#seen.set(uri, now);
      await this.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  }
}

/**
 * Resources: the project's files (listed and paged), and one template per
 * thing a tool result links to (files, cells, entities, artifacts, types)
 * plus the ingest lease, each read through the REST endpoints. The session
 * watches its project (see `ProjectWatch`): when the corpus version moves,
 * `notifications/resources/list_changed`; subscribed resources that
 * changed get `notifications/resources/updated`.
 */
export const resourcesFeature: McpFeature = {
  capabilities: { resources: { subscribe: true, listChanged: true } },
  register(server, ctx) {
    const subscriptions = new Subscriptions(server, ctx);
    handleRequest(server, "resources/list", (params) => listResources(ctx, params));
    handleRequest(server, "resources/templates/list", async () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
    handleRequest(server, "resources/read", (params) => readResource(ctx, uriParam(params)));
    handleRequest(server, "resources/subscribe", async (params) => {
      await subscriptions.add(uriParam(params));
      return {};
    });
    handleRequest(server, "resources/unsubscribe", async (params) => {
      subscriptions.remove(uriParam(params));
      return {};
    });
    projectWatch(server, ctx).on(async (next, previous) => {
      if (next.version !== previous.version) await server.sendResourceListChanged().catch(() => undefined);
      await subscriptions.recheck();
    });
  },
};
