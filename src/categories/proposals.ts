/**
 * Proposed types, as people (and agents) settle them: the newest-first list,
 * confirm (the proposal's fields become the type's schema, or join an
 * existing type of the same name; its sections are filed under the type) and
 * reject (the shape is never proposed again). Settling is idempotent in its
 * own direction and 409 in the opposite one.
 */
import type { Db } from "../store/db.js";
import { AppError } from "../errors.js";
import { normalizeName } from "../entities/normalize-name.js";
import type { Scope } from "../core/scope.js";
import type { Page, PagedQuery } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Tools } from "../core/tools.js";
import { readProposal, readProposalPage, settleProposal } from "../store/categories/category-proposals.js";
import type { ProposalRow } from "../store/categories/category-proposals.js";
import { ensureCategory } from "../store/categories/category-members.js";
import { readSchema, replaceSchema } from "../store/categories/category-schemas.js";
import { findCategory } from "../store/graph/entity-reads.js";
import type { Proposal } from "./resources.js";
import { reviewTypes } from "./review-types.js";

const toProposal = (p: ProposalRow): Proposal => ({
  proposalId: p.proposalId,
  name: p.name,
  description: p.description,
  fields: p.fields as Proposal["fields"],
  evidence: p.evidence,
  status: p.status,
  updatedAt: p.updatedAt,
});

/** `GET …/category-proposals`: every proposal of the project, newest first. */
export async function listProposals(db: Db, scope: Scope, query: PagedQuery, tools: Pick<Tools, "cursors">): Promise<Page<Proposal>> {
  const page = await keysetPage(
    tools.cursors,
    { name: "category-proposals", projectId: scope.projectId, query },
    (after, n) => readProposalPage(db, scope.projectIds, after ? parsePosition(after) : undefined, n),
    (p) => `${p.createdAt}|${p.proposalId}`,
  );
  return { rows: page.rows.map(toProposal), nextCursor: page.nextCursor };
}

function parsePosition(after: string): { createdAt: string; proposalId: string } {
  const bar = after.lastIndexOf("|");
  if (bar < 0) throw new AppError("invalid_cursor");
  return { createdAt: after.slice(0, bar), proposalId: after.slice(bar + 1) };
}

/**
 * Confirms a proposal: the type entity named like it (ignoring case) is
 * found or created, and receives the proposal's fields — appended to the
 * fields it has, never replacing one (a person's edit stays), version + 1
 * when anything was added. Then the typing pass files the sections and
 * fills each member's cell. Confirming again answers the same type.
 */
export async function confirmProposal(db: Db, scope: Scope, proposalId: string, tools: Pick<Tools, "clock">): Promise<{ entityId: string }> {
  const now = new Date(tools.clock()).toISOString();
  const entityId = await db.transaction(async (tx) => {
    const p = await readProposal(tx, [scope.projectId], proposalId);
    if (!p) throw new AppError("category_proposal_not_found");
    if (p.status === 1 && p.entityId) return p.entityId;
    if (p.status !== 0) throw new AppError("category_proposal_settled");
    const existing = await findCategory(tx, [scope.projectId], p.name);
    const typeId = existing?.entityId ?? (await ensureCategory(tx, scope.projectId, p.name, normalizeName(p.name), now));
    const schema = await readSchema(tx, typeId);
    const added = p.fields.filter((f) => !schema.fields.some((s) => s.name.toLowerCase() === f.name.toLowerCase()));
    if (added.length > 0 || schema.version === 0) {
      const moved = await replaceSchema(tx, scope.projectId, typeId, schema.version, [...schema.fields, ...added], now);
      if (moved === undefined) throw new Error("the schema moved inside its own transaction");
    }
    if (!(await settleProposal(tx, proposalId, 1, typeId, now))) throw new AppError("category_proposal_settled");
    return typeId;
  });
  await reviewTypes(db, scope.projectId, now);
  return { entityId };
}

/** Rejects a proposal: its shape is never proposed again. Rejecting again answers the same. */
export async function rejectProposal(db: Db, scope: Scope, proposalId: string, tools: Pick<Tools, "clock">): Promise<Record<string, never>> {
  const now = new Date(tools.clock()).toISOString();
  await db.transaction(async (tx) => {
    const p = await readProposal(tx, [scope.projectId], proposalId);
    if (!p) throw new AppError("category_proposal_not_found");
    if (p.status === 2) return;
    if (p.status !== 0 || !(await settleProposal(tx, proposalId, 2, null, now))) throw new AppError("category_proposal_settled");
  });
  return {};
}
