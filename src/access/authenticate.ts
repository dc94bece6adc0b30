import { AppError } from "../errors.js";
import type { Principal } from "./principal.js";
import type { Queryable } from "../store/db.js";
import { getApiKey, liveKeysByPrefix } from "../store/access/api-keys.js";
import type { ApiKeyRecord } from "../store/access/api-keys.js";
import { findLiveSession } from "../store/access/sessions.js";
import { hashSecret, isWellFormedApiKey, safeEqual, visiblePrefix } from "./api-key-format.js";
import { isWellFormedSessionToken } from "./session-token.js";

/** The token of an `Authorization: Bearer <token>` header, if well formed (the scheme is case-insensitive, RFC 9110). */
export function bearerToken(header: string | undefined | null): string | undefined {
  const m = /^Bearer ([\x21-\x7e]{1,512})$/i.exec(header?.trim() ?? "");
  return m?.[1];
}

/**
 * Resolves an API key to its principal. Missing, malformed, bad-checksum,
 * unknown and revoked keys all answer 401 `invalid API key`.
 */
export async function authenticateKey(q: Queryable, header: string | undefined | null): Promise<Principal> {
  const token = bearerToken(header);
  if (!token || !isWellFormedApiKey(token)) throw new AppError("invalid_api_key");
  const hash = hashSecret(token);
  const candidates = await liveKeysByPrefix(q, visiblePrefix(token));
  const key = candidates.find((k) => safeEqual(k.hash, hash));
  if (!key) throw new AppError("invalid_api_key");
  return keyPrincipal(key, "key");
}

/**
 * Resolves a session token to its principal: 401 `unauthorized` when it is
 * missing, malformed, unknown, expired, or its key was revoked.
 */
export async function authenticateSession(q: Queryable, header: string | undefined | null, now: Date): Promise<Principal> {
  const token = bearerToken(header);
  if (!token || !isWellFormedSessionToken(token)) throw new AppError("unauthorized");
  const session = await findLiveSession(q, hashSecret(token), now);
  if (!session) throw new AppError("unauthorized");
  const key = session.keyId ? await getApiKey(q, session.keyId) : undefined;
  // A session keeps the tier of the key that minted it: a submit key cannot widen its reach.
  if (key) return keyPrincipal(key, "session");
  return { userId: session.userId, via: "session", keyId: null, tier: "standard", boundProjectId: null, boundTypeId: null };
}

function keyPrincipal(key: ApiKeyRecord, via: "key" | "session"): Principal {
  return {
    userId: key.userId,
    via,
    keyId: key.keyId,
    tier: key.tier,
    boundProjectId: key.projectId,
    boundTypeId: key.boundTypeId,
  };
}
