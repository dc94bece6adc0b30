import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";

export interface LeaseRow {
  leaseId: string;
  projectId: string;
  lastIntent: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  lease_id: string;
  project_id: string;
  last_intent: string | null;
  created_at: string;
  updated_at: string;
}

const toLease = (r: Row): LeaseRow => ({
  leaseId: r.lease_id,
  projectId: r.project_id,
  lastIntent: r.last_intent,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The project's one lease, created on first use; a batch touches it and records its intent. */
export async function touchLease(q: Queryable, projectId: string, intent: string | undefined, now: string): Promise<LeaseRow> {
  const row = await q.get<Row>(
    `INSERT INTO leases (lease_id, project_id, last_intent, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET updated_at = excluded.updated_at,
       last_intent = COALESCE(excluded.last_intent, leases.last_intent)
     RETURNING *`,
    [newId("lse"), projectId, intent ?? null, now, now],
  );
  return toLease(row!);
}

export async function getLease(q: Queryable, projectId: string): Promise<LeaseRow | undefined> {
  const row = await q.get<Row>("SELECT * FROM leases WHERE project_id = ?", [projectId]);
  return row && toLease(row);
}
