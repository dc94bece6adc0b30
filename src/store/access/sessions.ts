import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";

export interface SessionRecord {
  sessionId: string;
  userId: string;
  keyId: string | null;
  createdAt: string;
  expiresAt: string;
}

interface SessionRow {
  session_id: string;
  user_id: string;
  key_id: string | null;
  created_at: string;
  expires_at: string;
}

export async function insertSession(
  q: Queryable,
  s: { hash: string; userId: string; keyId: string | null; expiresAt: Date },
  now = new Date(),
): Promise<SessionRecord> {
  const rec: SessionRecord = {
    sessionId: newId("ses"),
    userId: s.userId,
    keyId: s.keyId,
    createdAt: now.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
  };
  await q.execute(
    "INSERT INTO sessions (session_id, hash, user_id, key_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    [rec.sessionId, s.hash, rec.userId, rec.keyId, rec.createdAt, rec.expiresAt],
  );
  return rec;
}

/**
 * The unexpired session with this token hash, provided the key that minted it
 * (if any) is still live.
 */
export async function findLiveSession(q: Queryable, hash: string, now = new Date()): Promise<SessionRecord | undefined> {
  const row = await q.get<SessionRow>(
    `SELECT s.* FROM sessions s LEFT JOIN api_keys k ON k.key_id = s.key_id
     WHERE s.hash = ? AND s.expires_at > ? AND (s.key_id IS NULL OR k.revoked_at IS NULL)`,
    [hash, now.toISOString()],
  );
  return (
    row && {
      sessionId: row.session_id,
      userId: row.user_id,
      keyId: row.key_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }
  );
}

/** Deletes sessions past their expiry. */
export async function deleteExpiredSessions(q: Queryable, now = new Date()): Promise<number> {
  const r = await q.execute("DELETE FROM sessions WHERE expires_at <= ?", [now.toISOString()]);
  return r.rowsAffected;
}

/**
 * Ends one of a user's sessions by its token hash (sign-out); true when it
 * was there. With `projectId`, only a session minted by a key bound to that
 * project (what a bound caller may reach).
 */
export async function deleteSession(q: Queryable, hash: string, userId: string, projectId: string | null = null): Promise<boolean> {
  const r = await q.execute(
    `DELETE FROM sessions WHERE hash = ? AND user_id = ?
       AND (? IS NULL OR key_id IN (SELECT key_id FROM api_keys WHERE project_id = ?))`,
    [hash, userId, projectId, projectId],
  );
  return r.rowsAffected > 0;
}
