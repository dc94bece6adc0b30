import { randomBytes } from "node:crypto";
import { isBase62, toBase62 } from "../base62.js";
import type { Principal } from "./principal.js";
import type { Queryable } from "../store/db.js";
import { insertSession } from "../store/access/sessions.js";
import { hashSecret } from "./api-key-format.js";

const PREFIX = "pkss_";
const BODY = 43;
/** Sessions last 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export function isWellFormedSessionToken(token: string): boolean {
  return token.length === PREFIX.length + BODY && token.startsWith(PREFIX) && isBase62(token.slice(PREFIX.length));
}

export interface MintedSession {
  sessionToken: string;
  expiresAt: string;
}

/** Mints a session for the caller; only its hash is stored. */
export async function mintSession(q: Queryable, principal: Pick<Principal, "userId" | "keyId">, now: Date): Promise<MintedSession> {
  const sessionToken = PREFIX + toBase62(randomBytes(32), BODY);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(q, { hash: hashSecret(sessionToken), userId: principal.userId, keyId: principal.keyId, expiresAt }, now);
  return { sessionToken, expiresAt: expiresAt.toISOString() };
}
