/**
 * The typing pass, run after reading settles a project's files (and after a
 * confirmation): reads the project's sections back as instances, groups them
 * by shape, and for each shape
 * - that belongs to a type (a confirmed proposal, or a type of that name):
 *   files its sections under the type, gives their entities the type, fills
 *   each member's cell from its own cells when its material is new, and
 *   proposes a schema change when the sections show fields the schema lacks
 *   (a pending proposal: ingestion never rewrites a schema);
 * - else: keeps one pending proposal per shape up to date, unless the shape
 *   was rejected (never proposed again).
 * Pending proposals whose shape no longer reads from any section are dropped.
 */
import { createHash } from "node:crypto";
import type { Db, Queryable } from "../store/db.js";
import { normalizeName } from "../entities/normalize-name.js";
import { newId, newOrderedId } from "../ids.js";
import type { SchemaField } from "../vocabulary.js";
import { cellIdsOfFactions } from "../store/categories/typing-material.js";
import { dropPendingProposals, insertProposal, proposalsByFingerprint, refreshPendingProposal } from "../store/categories/category-proposals.js";
import type { ProposedShape } from "../store/categories/category-proposals.js";
import { fileMember, readCategories } from "../store/categories/category-members.js";
import { dropSchemaProposal, readSchema, readSchemaProposal, rejectedFields, writeSchemaProposal } from "../store/categories/category-schemas.js";
import type { StoredSchema } from "../store/categories/category-schemas.js";
import { filledCellsOfCategory, writeFilledCell } from "../store/categories/filled-cells.js";
import { upsertNamedEntities } from "../store/graph/named-entities.js";
import type { Instance, InstanceSource } from "./instance.js";
import { proposeShapes } from "./propose/propose-shapes.js";
import type { ShapeProposal } from "./propose/propose-shapes.js";
import { fillFields } from "./fill/fill-fields.js";
import { addedFields, fieldFingerprint } from "./schema-change.js";
import { readTyping } from "./typing-read.js";

/** What one pass did, for logs and tests. */
export interface ReviewSummary {
  proposed: number;
  refreshed: number;
  dropped: number;
  filed: number;
  filled: number;
  schemaProposals: number;
}

/**
 * Runs the typing pass over one project: `instances` are every ready
 * file's (`readTyping`, read here when not given). The sections are read
 * and grouped before the write transaction opens, so writers wait only
 * for the pass's own writes; a file that changes in between is seen by the
 * next pass (one runs after every drained batch).
 */
export async function reviewTypes(db: Db, projectId: string, now: string, instances?: Instance[]): Promise<ReviewSummary> {
  const all = instances ?? (await readTyping(db, projectId)).instances;
  return (await db.transaction((tx) => reviewInTransaction(tx, projectId, now, all)))!;
}

/**
 * The typing pass over part of a project: `instances` are those of every
 * ready file with instances of the `sources` in scope, and only their shapes are
 * proposed, refreshed or dropped (shapes group within one source, so the
 * others stand as the whole pass would leave them). Answers undefined,
 * writing nothing, when the project has a type: a type's members and
 * filled cells are read from all its shapes, of any source, and follow
 * its schema, which a person may have edited since the last pass, so the
 * caller runs the whole pass instead.
 */
export async function reviewTypesOf(
  db: Db,
  projectId: string,
  now: string,
  instances: Instance[],
  sources: ReadonlySet<InstanceSource>,
): Promise<ReviewSummary | undefined> {
  return db.transaction((tx) => reviewInTransaction(tx, projectId, now, instances, undefined, sources));
}

/**
 * Reads every member of one type again against its schema as it stands,
 * new material or not (the on-demand re-read after a schema edit). Answers
 * how many filled cells were written.
 */
export async function refillCategory(db: Db, projectId: string, categoryId: string, now: string): Promise<number> {
  const { instances } = await readTyping(db, projectId);
  return db.transaction(async (tx) => (await reviewInTransaction(tx, projectId, now, instances, categoryId))!.filled);
}

/** The source a proposal's fingerprint was read from (`section:incident` → `section`). */
function sourceOf(fingerprint: string): string {
  const colon = fingerprint.indexOf(":");
  return colon < 0 ? "" : fingerprint.slice(0, colon);
}

async function reviewInTransaction(
  tx: Queryable,
  projectId: string,
  now: string,
  all: Instance[],
  refill?: string,
  sources?: ReadonlySet<InstanceSource>,
): Promise<ReviewSummary | undefined> {
  const summary: ReviewSummary = { proposed: 0, refreshed: 0, dropped: 0, filed: 0, filled: 0, schemaProposals: 0 };
  const instances = sources ? all.filter((i) => sources.has(i.source)) : all;
  const shapes = proposeShapes(instances);
  const proposals = await proposalsByFingerprint(tx, projectId);
  const categories = new Map((await readCategories(tx, projectId)).map((c) => [normalizeName(c.name), c.entityId]));
  const typeOf = (shape: ShapeProposal) => {
    const proposal = proposals.get(shape.fingerprint);
    return (proposal?.status === 1 ? proposal.entityId : null) ?? categories.get(normalizeName(shape.name));
  };
  // A type's members, filled cells and schema changes follow its schema and every shape of any source: with types, the whole pass.
  if (sources && categories.size + [...proposals.values()].filter((p) => p.status === 1).length > 0) return undefined;
  const seen = new Set<string>();
  const typed = new Map<string, ShapeProposal[]>();
  for (const shape of shapes) {
    if (seen.has(shape.fingerprint)) continue; // one proposal per fingerprint (proposeShapes keeps them distinct)
    seen.add(shape.fingerprint);
    const proposal = proposals.get(shape.fingerprint);
    const categoryId = typeOf(shape);
    if (categoryId) {
      typed.set(categoryId, [...(typed.get(categoryId) ?? []), shape]);
      continue;
    }
    if (proposal?.status === 2 || proposal?.status === 1) continue; // rejected: never again; confirmed type gone: nothing to file under
    const proposed = proposedShape(shape);
    if (!proposal) {
      await insertProposal(tx, projectId, newId("prp"), proposed, now);
      summary.proposed++;
    } else if (JSON.stringify([proposal.name, proposal.description, proposal.fields, proposal.evidence]) !== JSON.stringify([proposed.name, proposed.description, proposed.fields, proposed.evidence])) {
      await refreshPendingProposal(tx, proposal.proposalId, proposed, now);
      summary.refreshed++;
    }
  }
  for (const [categoryId, of] of typed) await applyToCategory(tx, projectId, categoryId, of, now, summary, refill === categoryId);
  const inScope = (fingerprint: string) => !sources || sources.has(sourceOf(fingerprint) as InstanceSource);
  const gone = [...proposals.values()].filter((p) => p.status === 0 && !seen.has(p.fingerprint) && inScope(p.fingerprint)).map((p) => p.proposalId);
  await dropPendingProposals(tx, gone);
  summary.dropped = gone.length;
  return summary;
}

function proposedShape(shape: ShapeProposal): ProposedShape {
  return { fingerprint: shape.fingerprint, name: shape.name, description: shape.description, fields: shape.fields, evidence: [...new Set(shape.evidence)] };
}

/**
 * Files and fills the members of one type from every shape that belongs to
 * it. A member is one thing however many sections, rows or front matters
 * state it ("Customer: Globex" in accounts.md and a Globex row of
 * customers.csv): its filled cell is read from all of them at once, so
 * each field any of them states is filled (the first that states a value
 * of the field's type wins) — one cell per member, never one instance's
 * reading overwriting another's.
 */
async function applyToCategory(
  tx: Queryable,
  projectId: string,
  categoryId: string,
  shapes: readonly ShapeProposal[],
  now: string,
  summary: ReviewSummary,
  refill: boolean,
): Promise<void> {
  const schema = await readSchema(tx, categoryId);
  const candidates = shapes.flatMap((s) => s.candidates);
  const evidence = [...new Set(shapes.flatMap((s) => s.evidence))];
  if (await proposeSchemaChange(tx, projectId, categoryId, schema, candidates, evidence, now)) summary.schemaProposals++;
  const filled = await filledCellsOfCategory(tx, categoryId);
  const typeName = shapes[0]!.name;
  const cellsOf = await cellIdsOfFactions(tx, shapes.flatMap((s) => s.instances.flatMap((i) => i.factionIds)));
  for (const member of membersOf(shapes)) {
    const title = member.title.trim() || typeName;
    const [entityId] = await upsertNamedEntities(tx, projectId, [{ name: title, normName: normalizeName(title), normNames: [], kind: "record" }]);
    for (const instance of member.instances) {
      const cells = instance.factionIds.flatMap((id) => cellsOf.get(id) ?? []);
      await fileMember(tx, categoryId, { entityId: entityId!, factionIds: instance.factionIds, cellIds: cells, anchorCellId: cells[0] });
      summary.filed++;
    }
    const whole = mergedInstance(member.instances);
    const material = materialOf(whole);
    const earlier = filled.get(entityId!);
    if (!refill && earlier && earlier.material === material) continue; // nothing new mentions it: keeps the version it was read against
    const { values, sources } = fillFields(schema.fields as SchemaField[], whole);
    await writeFilledCell(tx, {
      cellId: earlier?.cellId ?? newOrderedId("cel"),
      projectId,
      categoryEntityId: categoryId,
      entityId: entityId!,
      schemaVersion: schema.version,
      values,
      sources,
      fileIds: [...new Set(member.instances.map((i) => i.fileId))],
      material,
      text: filledText(typeName, title, values),
      updatedAt: now,
    });
    summary.filled++;
  }
}

/** The shapes' instances grouped by the member they name (their titles, normalised), in the shapes' order. */
function membersOf(shapes: readonly ShapeProposal[]): Array<{ title: string; instances: Instance[] }> {
  const members = new Map<string, { title: string; instances: Instance[] }>();
  for (const shape of shapes) {
    for (const instance of shape.instances) {
      const title = instance.title.trim() || shape.name;
      const key = normalizeName(title);
      const member = members.get(key);
      if (member) member.instances.push(instance);
      else members.set(key, { title, instances: [instance] });
    }
  }
  return [...members.values()];
}

/** One member's instances read as one: every stated value, in order, and every faction. */
function mergedInstance(instances: readonly Instance[]): Instance {
  const [first] = instances;
  if (instances.length === 1) return first!;
  return { ...first!, factionIds: instances.flatMap((i) => i.factionIds), values: instances.flatMap((i) => i.values) };
}

/**
 * Keeps the type's pending schema change in step with what its sections
 * show: the fields the schema lacks, less those a person rejected (a
 * rejected change is never proposed again, whatever file is edited next).
 * A pending change that no longer adds anything (the schema caught up) is
 * dropped, and none is written that would add nothing. Answers whether a
 * change was written.
 */
async function proposeSchemaChange(
  tx: Queryable,
  projectId: string,
  categoryId: string,
  schema: StoredSchema,
  candidates: readonly SchemaField[],
  evidence: readonly string[],
  now: string,
): Promise<boolean> {
  const rejected = await rejectedFields(tx, categoryId);
  const missing = addedFields(schema.fields, candidates).filter((f) => !rejected.has(fieldFingerprint(f)));
  const pending = await readSchemaProposal(tx, categoryId);
  if (missing.length === 0) {
    if (pending && addedFields(schema.fields, pending.fields).length === 0) await dropSchemaProposal(tx, categoryId);
    return false;
  }
  const fields = [...schema.fields, ...missing];
  if (pending && pending.baseVersion === schema.version && JSON.stringify(pending.fields) === JSON.stringify(fields)) return false;
  await writeSchemaProposal(tx, projectId, categoryId, { baseVersion: schema.version, fields, evidence }, now);
  return true;
}

/** What a member was read from: its factions (a faction's id changes with its content). */
function materialOf(instance: Instance): string {
  return createHash("sha256").update(instance.factionIds.join(",")).digest("hex").slice(0, 32);
}

/** The filled cell's claim, readable on its own: `Incident "Payment outage": severity high; date 2026-03-02`. */
function filledText(typeName: string, title: string, values: Record<string, unknown>): string {
  const parts = Object.entries(values).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") : String(v)}`);
  return `${typeName} "${title}"${parts.length ? `: ${parts.join("; ")}` : ""}`;
}
