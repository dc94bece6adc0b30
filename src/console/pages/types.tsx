/**
 * Typed knowledge for people: proposed types with their evidence sections
 * beside their fields (confirm, reject), pending schema changes (approve,
 * reject), the types with their members' filled cells, and the schema
 * editor, whose stale saves come back as "changed since you opened it".
 */
import type { CategorySchema, FilledCell, Proposal } from "../../categories/resources.js";
import { isAppError } from "../../errors.js";
import type { Cell, Entity, Faction, FileResource } from "../../graph/resources.js";
import { FIELD_TYPES } from "../../vocabulary.js";
import { ActionForm, count, Notice, paths, spanText, Table } from "../layout.js";
import type { PageContext, Rendered } from "../page.js";
import type { Visit } from "../visit.js";
import { excerpt } from "./graph.js";

type SchemaField = CategorySchema["fields"][number];
/** A type's schema as it stands and the change reading proposed, if any (the console's own read). */
export interface SchemaWithPending {
  categorySchema: CategorySchema;
  pending: { fields: SchemaField[]; baseVersion: number; evidence: string[] } | null;
}

const STATUS = ["Pending", "Confirmed", "Rejected"] as const;
/** Blank rows the schema editor offers for new fields. */
const BLANK_FIELDS = 2;

/** Evidence sections: each faction with its file and the first cells read from it. */
async function evidence(visit: Visit, factionIds: string[]): Promise<Array<{ faction: Faction; file: FileResource | undefined; cells: Cell[] }>> {
  if (factionIds.length === 0) return [];
  const factions = (await visit.page<Faction>("factions.list", { query: { factionIds: factionIds.join(",") } })).rows;
  const order = new Map(factionIds.map((id, i) => [id, i]));
  factions.sort((a, b) => (order.get(a.factionId) ?? 0) - (order.get(b.factionId) ?? 0));
  const files = new Map<string, FileResource | undefined>();
  const out = [];
  for (const faction of factions) {
    const fileId = faction.fileIds[0];
    if (fileId && !files.has(fileId)) files.set(fileId, await visit.call<FileResource>("files.get", { params: { fileId } }).catch(() => undefined));
    const cells = (await visit.page<Cell>("cells.list", { query: { factionId: faction.factionId, limit: "5" } })).rows;
    out.push({ faction, file: fileId ? files.get(fileId) : undefined, cells });
  }
  return out;
}

function Evidence({ items, projectId: p }: { items: Awaited<ReturnType<typeof evidence>>; projectId: string }) {
  if (items.length === 0) return <p>No evidence section is live any more.</p>;
  return (
    <ol class="evidence">
      {items.map(({ faction, file, cells }) => (
        <li>
          <h4>
            {file ? <a href={paths.file(p, file.fileId, faction.sourceLocation.lineStart)}>{file.path}</a> : "a file no longer served"}
            <span class="meta">
              {" "}
              {faction.factionType}, {spanText(faction.sourceLocation)}
            </span>
          </h4>
          <ul class="plain">
            {cells.map((c) => (
              <li>
                <a href={paths.cell(p, c.cellId)}>{excerpt(c.text, 200)}</a>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function FieldTable({ fields, caption }: { fields: SchemaField[]; caption: string }) {
  return (
    <Table head={["Field", "Type", "Required", "Description"]} caption={caption}>
      {fields.length === 0 ? (
        <tr>
          <td colspan={4}>No fields.</td>
        </tr>
      ) : (
        fields.map((f) => (
          <tr>
            <td>{f.name}</td>
            <td>{f.type}</td>
            <td>{f.required ? "yes" : "no"}</td>
            <td>{f.description}</td>
          </tr>
        ))
      )}
    </Table>
  );
}

/** Every type of the project (entities of kind `category`), first 200. */
async function listTypes(visit: Visit): Promise<Entity[]> {
  return (await visit.page<Entity>("entities.list", { query: { entityType: "Category", limit: "200" } })).rows;
}

async function schemaOf(visit: Visit, entityId: string): Promise<SchemaWithPending> {
  return visit.call<SchemaWithPending>("console.type-schema", { params: { entityId } });
}

export async function proposalsPage({ visit, project, csrf, url }: PageContext): Promise<Rendered> {
  const p = project.projectId;
  const cursor = url.searchParams.get("cursor") ?? "";
  const page = await visit.page<Proposal>("category-proposals.list", { query: { cursor, limit: "20" } });
  const shown = await Promise.all(page.rows.map(async (proposal) => ({ proposal, items: await evidence(visit, proposal.evidence) })));
  const changes = [];
  for (const type of await listTypes(visit)) {
    const schema = await schemaOf(visit, type.entityId);
    if (schema.pending) changes.push({ type, schema, items: await evidence(visit, schema.pending.evidence) });
  }
  const done = url.searchParams.get("done");
  return {
    frame: { title: "Proposed types", section: "proposals" },
    body: (
      <>
        {done ? <Notice kind="ok">{done === "confirmed" ? "Confirmed: the type is made." : done === "rejected" ? "Rejected." : done === "approved" ? "Schema change approved." : "Schema change dropped."}</Notice> : null}
        <p>Reading proposes a type when a shape repeats across documents. Compare the fields with the sections they were read from, then confirm or reject.</p>
        {shown.length === 0 ? <p>No type has been proposed.</p> : null}
        {shown.map(({ proposal, items }) => (
          <ProposalCard proposal={proposal} items={items} ctx={{ visit, csrf, projectId: p }} />
        ))}
        {page.nextCursor ? (
          <p>
            <a href={`${paths.proposals(p)}?${new URLSearchParams({ cursor: page.nextCursor })}`}>Older proposals</a>
          </p>
        ) : null}
        <h2>Schema changes</h2>
        {changes.length === 0 ? <p>No schema change is waiting.</p> : null}
        {changes.map(({ type, schema, items }) => (
          <SchemaChange type={type} schema={schema} items={items} ctx={{ visit, csrf, projectId: p }} />
        ))}
      </>
    ),
  };
}

/** One proposed type: its fields beside the sections they were read from, and (for an editor, while pending) the decision. */
function ProposalCard(props: { proposal: Proposal; items: Awaited<ReturnType<typeof evidence>>; ctx: { visit: Visit; csrf: string; projectId: string } }) {
  const { proposal, items } = props;
  const { visit, csrf, projectId: p } = props.ctx;
  const action = `${paths.proposals(p)}/${encodeURIComponent(proposal.proposalId)}`;
  return (
    <article class="card" aria-labelledby={`prop-${proposal.proposalId}`}>
      <h2 id={`prop-${proposal.proposalId}`}>
        {proposal.name} <span class={`status s${proposal.status}`}>{STATUS[proposal.status]}</span>
      </h2>
      {proposal.description ? <p>{proposal.description}</p> : null}
      <div class="side-by-side">
        <div>
          <FieldTable fields={proposal.fields} caption={`Fields of ${proposal.name}`} />
        </div>
        <div>
          <h3>Evidence ({count(items.length, "section")})</h3>
          <Evidence items={items} projectId={p} />
        </div>
      </div>
      {visit.canEdit && proposal.status === 0 ? (
        <div class="actions">
          <ActionForm action={`${action}/confirm`} csrf={csrf} label="Confirm" />
          <ActionForm action={`${action}/reject`} csrf={csrf} label="Reject" danger />
        </div>
      ) : null}
    </article>
  );
}

function SchemaChange(props: { type: Entity; schema: SchemaWithPending; items: Awaited<ReturnType<typeof evidence>>; ctx: { visit: Visit; csrf: string; projectId: string } }) {
  const { type, schema, items } = props;
  const { visit, csrf, projectId: p } = props.ctx;
  const pending = schema.pending!;
  const added = pending.fields.filter((f) => !schema.categorySchema.fields.some((c) => c.name.toLowerCase() === f.name.toLowerCase()));
  return (
    <article class="card" aria-labelledby={`change-${type.entityId}`}>
      <h3 id={`change-${type.entityId}`}>
        Change to <a href={paths.type(p, type.entityId)}>{type.name}</a>
      </h3>
      <div class="side-by-side">
        <div>
          <FieldTable fields={schema.categorySchema.fields} caption={`${type.name} now (version ${schema.categorySchema.version})`} />
          <FieldTable fields={added} caption="Fields the change adds" />
        </div>
        <div>
          <h4>Evidence ({count(items.length, "section")})</h4>
          <Evidence items={items} projectId={p} />
        </div>
      </div>
      {visit.canEdit ? (
        <div class="actions">
          <ActionForm action={`${paths.type(p, type.entityId)}/schema/approve`} csrf={csrf} label="Approve" />
          <ActionForm action={`${paths.type(p, type.entityId)}/schema/reject`} csrf={csrf} label="Reject" danger />
        </div>
      ) : null}
    </article>
  );
}

export async function typesPage({ visit, project }: PageContext): Promise<Rendered> {
  const p = project.projectId;
  const types = await listTypes(visit);
  return {
    frame: { title: "Types", section: "types" },
    body:
      types.length === 0 ? (
        <p>
          No type yet. Confirm one under <a href={paths.proposals(p)}>Proposed types</a>.
        </p>
      ) : (
        <ul class="plain">
          {types.map((t) => (
            <li>
              <a href={paths.type(p, t.entityId)}>{t.name}</a>
            </li>
          ))}
        </ul>
      ),
  };
}

/** What a schema save sent back, for showing beside a conflict or a refusal. */
export interface SchemaAttempt {
  fields: SchemaField[];
  problem: string;
  conflict: boolean;
}

export async function typePage({ visit, project, csrf, url }: PageContext, entityId: string, attempt?: SchemaAttempt): Promise<Rendered> {
  const p = project.projectId;
  const type = await visit.call<Entity>("entities.get", { params: { entityId } });
  const schema = await schemaOf(visit, entityId);
  const members = (await visit.page<Entity>("entities.list", { query: { entityType: entityId, limit: "200" } })).rows;
  const filled = (await visit.page<FilledCell>("cells.list", { query: { schemaId: entityId, limit: "200" } })).rows;
  const items = schema.pending ? await evidence(visit, schema.pending.evidence) : [];
  // A refused edit keeps what the person typed; a conflict starts from the current schema.
  const formFields = attempt && !attempt.conflict ? attempt.fields : schema.categorySchema.fields;
  const version = schema.categorySchema.version;
  return {
    status: attempt ? (attempt.conflict ? 409 : 400) : 200,
    frame: { title: type.name, section: "types" },
    body: (
      <>
        <TypeNotices url={url} version={version} attempt={attempt} />
        <section aria-labelledby="members">
          <h2 id="members">Members ({members.length})</h2>
          {members.length === 0 ? <p>No member yet.</p> : <MemberTable typeId={entityId} projectId={p} members={members} filled={filled} fields={schema.categorySchema.fields} />}
        </section>
        {schema.pending ? (
          <section aria-labelledby="pending">
            <h2 id="pending">Proposed schema change</h2>
            <SchemaChange type={type} schema={schema} items={items} ctx={{ visit, csrf, projectId: p }} />
          </section>
        ) : null}
        <section aria-labelledby="schema">
          <h2 id="schema">Schema (version {version})</h2>
          <p>Field types: {FIELD_TYPES.join(", ")}.</p>
          {visit.canEdit ? (
            <SchemaEditor action={`${paths.type(p, entityId)}/schema`} csrf={csrf} version={version} fields={formFields} />
          ) : (
            <FieldTable fields={schema.categorySchema.fields} caption={`Fields of ${type.name}`} />
          )}
          {attempt?.conflict ? <FieldTable fields={attempt.fields} caption="Your edit (not saved)" /> : null}
        </section>
      </>
    ),
  };
}

/** What the last change did (saved, approved, dropped) or why a save was refused. */
function TypeNotices({ url, version, attempt }: { url: URL; version: number; attempt: SchemaAttempt | undefined }) {
  const saved = url.searchParams.get("saved");
  return (
    <>
      {saved ? <Notice kind="ok">Saved as version {saved}.</Notice> : null}
      {url.searchParams.has("approved") ? <Notice kind="ok">Schema change approved: it is live as version {version}.</Notice> : null}
      {url.searchParams.has("dropped") ? <Notice kind="ok">Schema change dropped.</Notice> : null}
      {attempt?.conflict ? (
        <Notice kind="problem">
          <p>
            This schema changed since you opened it: it is now at version {version}. Nothing was saved. The editor below starts from version {version}; your edit
            is listed under it to copy from.
          </p>
        </Notice>
      ) : attempt ? (
        <Notice kind="problem">
          <p>Not saved: {attempt.problem}</p>
        </Notice>
      ) : null}
    </>
  );
}

/** A type's members, a column per field of its schema, each row linking to the member's filled cell. */
function MemberTable(props: { typeId: string; projectId: string; members: Entity[]; filled: FilledCell[]; fields: SchemaField[] }) {
  const p = props.projectId;
  const byMember = new Map(props.filled.map((c) => [c.entityIds[0], c]));
  const fieldNames = props.fields.map((f) => f.name);
  return (
    <Table head={["Member", ...fieldNames, "Filled cell"]}>
      {props.members.map((m) => {
        const cell = byMember.get(m.entityId);
        return (
          <tr>
            <th scope="row">{m.name}</th>
            {fieldNames.map((n) => (
              <td>
                <FieldValue cell={cell} field={n} projectId={p} />
              </td>
            ))}
            <td>{cell ? <a href={`${paths.type(p, props.typeId)}/members/${encodeURIComponent(m.entityId)}`}>Open filled cell of {m.name}</a> : "not filled yet"}</td>
          </tr>
        );
      })}
    </Table>
  );
}

/** One member's filled cell: each field of the type with its value and the cells it was read from. */
export async function filledCellPage({ visit, project }: PageContext, typeId: string, memberId: string): Promise<Rendered> {
  const p = project.projectId;
  const type = await visit.call<Entity>("entities.get", { params: { entityId: typeId } });
  const member = await visit.call<Entity>("entities.get", { params: { entityId: memberId } });
  const schema = await schemaOf(visit, typeId);
  const cell = (await visit.page<FilledCell>("cells.list", { query: { schemaId: typeId, entityId: memberId, limit: "1" } })).rows[0];
  return {
    frame: { title: `${member.name} (${type.name})`, section: "types" },
    body: (
      <>
        <p>
          A member of <a href={paths.type(p, typeId)}>{type.name}</a>.
        </p>
        {!cell ? (
          <p>This member has no filled cell yet: it is read against the schema when new material mentions it.</p>
        ) : (
          <FilledCellView cell={cell} schema={schema.categorySchema} projectId={p} />
        )}
      </>
    ),
  };
}

function FilledCellView({ cell, schema, projectId: p }: { cell: FilledCell; schema: CategorySchema; projectId: string }) {
  return (
    <>
      <Table head={["Field", "Type", "Value and sources"]} caption={`Filled cell, read against schema version ${cell.schemaVersion} (the schema is at version ${schema.version})`}>
        {schema.fields.map((f) => (
          <tr>
            <th scope="row">{f.name}</th>
            <td>{f.type}</td>
            <td>
              <FieldValue cell={cell} field={f.name} projectId={p} />
            </td>
          </tr>
        ))}
      </Table>
      <h2>Text</h2>
      <blockquote class="claim">{cell.text}</blockquote>
      <dl class="facts">
        <dt>Cell</dt>
        <dd>
          <code>{cell.cellId}</code>
        </dd>
        <dt>Updated</dt>
        <dd>
          <time datetime={cell.updatedAt}>{cell.updatedAt}</time>
        </dd>
        <dt>Files</dt>
        <dd>
          {cell.fileIds.map((fileId, i) => (
            <>
              {i > 0 ? ", " : ""}
              <a href={paths.file(p, fileId)}>file {i + 1}</a>
            </>
          ))}
        </dd>
      </dl>
    </>
  );
}

function FieldValue({ cell, field, projectId: p }: { cell: FilledCell | undefined; field: string; projectId: string }) {
  if (!cell || !(field in cell)) return <span class="meta">—</span>;
  const value = cell[field];
  const sources = cell._sources[field] ?? [];
  return (
    <>
      {Array.isArray(value) ? value.map(String).join(", ") : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)}
      {sources.map((id, i) => (
        <>
          {" "}
          <a href={paths.cell(p, id)} aria-label={`source ${i + 1} of ${field}`}>
            [{i + 1}]
          </a>
        </>
      ))}
    </>
  );
}

function SchemaEditor(props: { action: string; csrf: string; version: number; fields: SchemaField[] }) {
  const rows: Array<SchemaField | undefined> = [...props.fields, ...Array.from({ length: BLANK_FIELDS }, () => undefined)];
  return (
    <ActionForm action={props.action} csrf={props.csrf} label="Save schema" class="stack">
      <input type="hidden" name="version" value={String(props.version)} />
      <p>Clear a field's name to remove it; fill a blank one to add a field.</p>
      {rows.map((f, i) => {
        const n = i + 1;
        const id = `f${n}`;
        return (
          <fieldset class="field">
            <legend>Field {n}</legend>
            <label for={`${id}-name`}>Field {n} name</label>
            <input id={`${id}-name`} name={`field.${n}.name`} type="text" value={f?.name ?? ""} maxlength={64} />
            <label for={`${id}-type`}>Field {n} type</label>
            <select id={`${id}-type`} name={`field.${n}.type`}>
              {FIELD_TYPES.map((t) => (
                <option value={t} selected={(f?.type ?? "text") === t}>
                  {t}
                </option>
              ))}
            </select>
            <label for={`${id}-description`}>Field {n} description</label>
            <input id={`${id}-description`} name={`field.${n}.description`} type="text" value={f?.description ?? ""} />
            <span class="check">
              <input id={`${id}-required`} name={`field.${n}.required`} type="checkbox" value="on" checked={f?.required ?? false} />
              <label for={`${id}-required`}>Field {n} required</label>
            </span>
          </fieldset>
        );
      })}
    </ActionForm>
  );
}

/** The fields a schema form sent, in order; rows with no name are left out. */
export function fieldsFromForm(form: URLSearchParams): SchemaField[] {
  const numbers = new Set<number>();
  for (const key of form.keys()) {
    const m = /^field\.(\d{1,3})\.name$/.exec(key);
    if (m) numbers.add(Number(m[1]));
  }
  return [...numbers]
    .sort((a, b) => a - b)
    .map((n) => ({
      name: (form.get(`field.${n}.name`) ?? "").trim(),
      type: (form.get(`field.${n}.type`) ?? "text") as SchemaField["type"],
      description: (form.get(`field.${n}.description`) ?? "").trim(),
      required: form.get(`field.${n}.required`) === "on",
    }))
    .filter((f) => f.name !== "");
}

/** Saves a schema edit; a stale version or a refused field comes back as the type page with the reason. */
export async function saveSchema(ctx: PageContext, entityId: string, form: URLSearchParams): Promise<Rendered | { redirect: string }> {
  const fields = fieldsFromForm(form);
  const version = Number(form.get("version"));
  try {
    const saved = await ctx.visit.call<{ categorySchema: CategorySchema }>("entity-schema.put", {
      params: { entityId },
      body: { fields, version: Number.isSafeInteger(version) ? version : -1 },
    });
    return { redirect: `${paths.type(ctx.project.projectId, entityId)}?saved=${saved.categorySchema.version}` };
  } catch (err) {
    if (!isAppError(err) || (err.status !== 409 && err.status !== 400) || err.code === "entity_not_category") throw err;
    return typePage(ctx, entityId, { fields, problem: err.message, conflict: err.code === "schema_moved" });
  }
}
