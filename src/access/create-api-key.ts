import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { insertApiKey } from "../store/access/api-keys.js";
import type { ApiKeyRecord, KeyTier } from "../store/access/api-keys.js";
import { getProject } from "../store/access/projects.js";
import { mintApiKey } from "./api-key-format.js";

export interface CreateKeyRequest {
  userId: string;
  name?: string;
  tier?: KeyTier;
  projectId?: string | null;
  boundTypeId?: string | null;
}

/** A new key's record and its plaintext, which exists only in this answer. */
export interface CreatedKey {
  key: Omit<ApiKeyRecord, "hash">;
  plaintext: string;
}

/** Mints and stores a key; a `submit` key must be bound to a project. */
export async function createApiKey(q: Queryable, req: CreateKeyRequest): Promise<CreatedKey> {
  const tier = req.tier ?? "standard";
  if (tier === "submit" && !req.projectId) {
    throw new AppError("invalid_input", { message: "a submit key must be bound to a project" });
  }
  if (req.projectId && !(await getProject(q, req.projectId))) throw new AppError("project_not_found");
  const minted = mintApiKey();
  const { hash: _hash, ...key } = await insertApiKey(q, {
    userId: req.userId,
    name: req.name,
    prefix: minted.prefix,
    hash: minted.hash,
    tier,
    projectId: req.projectId ?? null,
    boundTypeId: req.boundTypeId ?? null,
  });
  return { key, plaintext: minted.plaintext };
}
