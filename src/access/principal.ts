import type { KeyTier } from "../store/access/api-keys.js";

/** Who is calling: resolved once per request by a transport. */
export interface Principal {
  userId: string;
  /**
   * How the caller proved itself: an API key, a session token, the local
   * stdio owner, or a detached task run for the user who queued it.
   */
  via: "key" | "session" | "local" | "task";
  keyId: string | null;
  tier: KeyTier;
  /** A key bound to one project reaches only that project, and needs no project header. */
  boundProjectId: string | null;
  /** The named-object type a `submit` key (or a bound key) submits records to. */
  boundTypeId: string | null;
}

/**
 * The caller of a detached task's run: the user who queued it, at the
 * standard tier (a `submit` key reaches no detached action), bound to no
 * project (the task names its own). Its level is read live, as any caller's.
 */
export function taskPrincipal(userId: string): Principal {
  return { userId, via: "task", keyId: null, tier: "standard", boundProjectId: null, boundTypeId: null };
}
