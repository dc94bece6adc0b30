import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import type { StoredField } from "./category-schemas.js";

/** Proposal status (DECISIONS.md): 0 pending, 1 confirmed, 2 rejected. */
export type ProposalStatus = 0 | 1 | 2;

export interface ProposalRow {
  proposalId: string;
  projectId: string;
  fingerprint: string;
  name: string;
  description: string;
  fields: StoredField[];
  evidence: string[];
  status: ProposalStatus;
  entityId: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  proposal_id: string;
  project_id: string;
  fingerprint: string;
  name: string;
  description: string;
  fields: string;
  evidence: string;
  status: number;
  entity_id: string | null;
  created_at: string;
  updated_at: string;
}

const toProposal = (r: Row): ProposalRow => ({
  proposalId: r.proposal_id,
  projectId: r.project_id,
  fingerprint: r.fingerprint,
  name: r.name,
  description: r.description,
  fields: JSON.parse(r.fields) as StoredField[],
  evidence: JSON.parse(r.evidence) as string[],
  status: Number(r.status) as ProposalStatus,
  entityId: r.entity_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A keyset position in the newest-first list. */
export interface ProposalPosition {
  createdAt: string;
  proposalId: string;
}

/** Proposals of the projects, newest first (by creation, then id), after `after`. */
export async function readProposalPage(
  q: Queryable,
  projectIds: readonly string[],
  after: ProposalPosition | undefined,
  limit: number,
): Promise<ProposalRow[]> {
  const args: InValue[] = [...projectIds];
  let where = `project_id IN (${placeholders(projectIds.length)})`;
  if (after) {
    where += " AND (created_at < ? OR (created_at = ? AND proposal_id < ?))";
    args.push(after.createdAt, after.createdAt, after.proposalId);
  }
  const rows = await q.all<Row>(`SELECT * FROM category_proposals WHERE ${where} ORDER BY created_at DESC, proposal_id DESC LIMIT ?`, [...args, limit]);
  return rows.map(toProposal);
}

export async function readProposal(q: Queryable, projectIds: readonly string[], proposalId: string): Promise<ProposalRow | undefined> {
  const row = await q.get<Row>(`SELECT * FROM category_proposals WHERE proposal_id = ? AND project_id IN (${placeholders(projectIds.length)})`, [
    proposalId,
    ...projectIds,
  ]);
  return row && toProposal(row);
}

/** Every proposal of a project, by fingerprint. */
export async function proposalsByFingerprint(q: Queryable, projectId: string): Promise<Map<string, ProposalRow>> {
  const rows = await q.all<Row>("SELECT * FROM category_proposals WHERE project_id = ?", [projectId]);
  return new Map(rows.map((r) => [r.fingerprint, toProposal(r)]));
}

/** What a reading proposes for one shape. */
export interface ProposedShape {
  fingerprint: string;
  name: string;
  description: string;
  fields: readonly StoredField[];
  evidence: readonly string[];
}

export async function insertProposal(q: Queryable, projectId: string, proposalId: string, shape: ProposedShape, now: string): Promise<void> {
  await q.execute(
    `INSERT INTO category_proposals (proposal_id, project_id, fingerprint, name, description, fields, evidence, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    [proposalId, projectId, shape.fingerprint, shape.name, shape.description, JSON.stringify(shape.fields), JSON.stringify(shape.evidence), now, now],
  );
}

/** Refreshes a pending proposal with a newer reading of its shape. */
export async function refreshPendingProposal(q: Queryable, proposalId: string, shape: ProposedShape, now: string): Promise<void> {
  await q.execute(
    "UPDATE category_proposals SET name = ?, description = ?, fields = ?, evidence = ?, updated_at = ? WHERE proposal_id = ? AND status = 0",
    [shape.name, shape.description, JSON.stringify(shape.fields), JSON.stringify(shape.evidence), now, proposalId],
  );
}

/** Removes pending proposals whose shape no longer reads from any live section. */
export async function dropPendingProposals(q: Queryable, proposalIds: readonly string[]): Promise<void> {
  if (proposalIds.length === 0) return;
  await q.execute(`DELETE FROM category_proposals WHERE status = 0 AND proposal_id IN (${placeholders(proposalIds.length)})`, [...proposalIds]);
}

/**
 * Settles a pending proposal (confirmed with its type, or rejected). Answers
 * whether it was still pending: two settlements race safely.
 */
export async function settleProposal(q: Queryable, proposalId: string, status: 1 | 2, entityId: string | null, now: string): Promise<boolean> {
  const r = await q.execute("UPDATE category_proposals SET status = ?, entity_id = ?, updated_at = ? WHERE proposal_id = ? AND status = 0", [
    status,
    entityId,
    now,
    proposalId,
  ]);
  return r.rowsAffected > 0;
}
