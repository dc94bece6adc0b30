import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";

export type KeyTier = "standard" | "submit";

/** An API key as stored: never the plaintext, only its hash and visible prefix. */
export interface ApiKeyRecord {
  keyId: string;
  userId: string;
  name: string;
  prefix: string;
  hash: string;
  tier: KeyTier;
  projectId: string | null;
  boundTypeId: string | null;
  createdAt: string;
  revokedAt: string | null;
}

interface KeyRow {
  key_id: string;
  user_id: string;
  name: string;
  prefix: string;
  hash: string;
  tier: KeyTier;
  project_id: string | null;
  bound_type_id: string | null;
  created_at: string;
  revoked_at: string | null;
}

const toKey = (r: KeyRow): ApiKeyRecord => ({
  keyId: r.key_id,
  userId: r.user_id,
  name: r.name,
  prefix: r.prefix,
  hash: r.hash,
  tier: r.tier,
  projectId: r.project_id,
  boundTypeId: r.bound_type_id,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export interface NewApiKey {
  userId: string;
  name?: string;
  prefix: string;
  hash: string;
  tier: KeyTier;
  projectId?: string | null;
  boundTypeId?: string | null;
}

export async function insertApiKey(q: Queryable, k: NewApiKey, now = new Date()): Promise<ApiKeyRecord> {
  const keyId = newId("key");
  await q.execute(
    `INSERT INTO api_keys (key_id, user_id, name, prefix, hash, tier, project_id, bound_type_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [keyId, k.userId, k.name ?? "", k.prefix, k.hash, k.tier, k.projectId ?? null, k.boundTypeId ?? null, now.toISOString()],
  );
  return (await getApiKey(q, keyId))!;
}

export async function getApiKey(q: Queryable, keyId: string): Promise<ApiKeyRecord | undefined> {
  const row = await q.get<KeyRow>("SELECT * FROM api_keys WHERE key_id = ?", [keyId]);
  return row && toKey(row);
}

/** Live (unrevoked) keys sharing a visible prefix: the candidates for a presented key. */
export async function liveKeysByPrefix(q: Queryable, prefix: string): Promise<ApiKeyRecord[]> {
  const rows = await q.all<KeyRow>("SELECT * FROM api_keys WHERE prefix = ? AND revoked_at IS NULL", [prefix]);
  return rows.map(toKey);
}

/** Keys, optionally of one user (and then optionally only those bound to one project), newest first. */
export async function listApiKeys(q: Queryable, userId?: string, projectId?: string | null): Promise<ApiKeyRecord[]> {
  const rows = !userId
    ? await q.all<KeyRow>("SELECT * FROM api_keys ORDER BY created_at DESC, key_id")
    : projectId
      ? await q.all<KeyRow>("SELECT * FROM api_keys WHERE user_id = ? AND project_id = ? ORDER BY created_at DESC, key_id", [userId, projectId])
      : await q.all<KeyRow>("SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at DESC, key_id", [userId]);
  return rows.map(toKey);
}

/** Revokes a key; true when it was live. */
export async function revokeApiKey(q: Queryable, keyId: string, now = new Date()): Promise<boolean> {
  const r = await q.execute("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL", [
    now.toISOString(),
    keyId,
  ]);
  return r.rowsAffected > 0;
}

/** Whether the user holds a live key bound to the project. */
export async function hasLiveProjectKey(q: Queryable, userId: string, projectId: string): Promise<boolean> {
  const row = await q.get("SELECT 1 FROM api_keys WHERE user_id = ? AND project_id = ? AND revoked_at IS NULL LIMIT 1", [userId, projectId]);
  return row !== undefined;
}
